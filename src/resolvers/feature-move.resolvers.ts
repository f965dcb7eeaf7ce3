import { builder } from './builder';
import { FeatureRef } from './features.resolvers';

/** Moving a feature to another project (the REST door is `POST …/features/:featureName/changeProject`). */

const MoveFeatureToProjectInput = builder.inputType('MoveFeatureToProjectInput', {
  description: 'Moves a feature to another project; it keeps its name, state, strategies, variants and tags.',
  fields: (t) => ({
    project: t.string({ required: true, description: 'Project the feature is in.' }),
    feature: t.string({ required: true, description: 'Feature name.' }),
    newProject: t.string({ required: true, description: 'Project the feature moves to.' }),
  }),
});

builder.mutationFields((t) => ({
  moveFeatureToProject: t.field({
    type: FeatureRef,
    description: 'Moves a feature to another project and answers it as moved; the caller also needs MOVE_FEATURE_TOGGLE in the target project. Refused while either project has change requests enabled, for a feature with dependencies, and where creating it in the target would be (naming pattern, feature limit). Event feature-project-change; none when it is already there.',
    args: { input: t.arg({ type: MoveFeatureToProjectInput, required: true, description: 'The feature, its project and the new project.' }) },
    resolve: async (_r, { input }, ctx) => {
      await ctx.services.featureMoves.move(input.project, input.feature, { newProjectId: input.newProject });
      return ctx.services.features.getProjectFeature(input.newProject, input.feature);
    },
  }),
}));
