import type { ChangeRequestEnvironmentConfig } from '../domain/change-requests/change-request-config.service';
import { builder } from './builder';

/** Change requests on the GraphQL door (issue 12): the same service as REST. */

const ChangeRequestConfigRef = builder.objectRef<ChangeRequestEnvironmentConfig>('ChangeRequestEnvironmentConfig').implement({
  description: 'Whether direct changes in an environment of a project need a change request, and how many approvals one needs.',
  fields: (t) => ({
    environment: t.exposeString('environment', { description: 'The environment.' }),
    type: t.exposeString('type', { description: 'Its type (development, production, …).' }),
    changeRequestsEnabled: t.exposeBoolean('changeRequestsEnabled', { description: 'Whether direct changes to features in it need a change request (or SKIP_CHANGE_REQUEST).' }),
    requiredApprovals: t.exposeInt('requiredApprovals', { description: 'Approvals a change request needs, by users other than its author (1 to 10).' }),
  }),
});

const UpdateChangeRequestConfigInput = builder.inputType('UpdateChangeRequestConfigInput', {
  description: "An environment's change-request settings in a project.",
  fields: (t) => ({
    project: t.string({ required: true, description: 'The project.' }),
    environment: t.string({ required: true, description: 'The environment (enabled in the project).' }),
    changeRequestsEnabled: t.boolean({ required: true, description: 'Whether direct changes need a change request.' }),
    requiredApprovals: t.int({ description: 'Approvals a request needs, 1 to 10 (unchanged when absent).' }),
  }),
});

builder.queryFields((t) => ({
  changeRequestConfig: t.field({
    type: [ChangeRequestConfigRef],
    description: "The change-request settings of every environment of a project (NotFoundError for an unknown project).",
    args: { project: t.arg.string({ required: true, description: 'The project.' }) },
    resolve: (_root, { project }, ctx) => ctx.services.changeRequestConfig.get(project),
  }),
}));

builder.mutationFields((t) => ({
  updateChangeRequestConfig: t.field({
    type: ChangeRequestConfigRef,
    description: "Sets an environment's change-request settings in a project. Event change-request-configuration-updated when something changed.",
    args: { input: t.arg({ type: UpdateChangeRequestConfigInput, required: true, description: 'The project, the environment and the settings.' }) },
    resolve: (_root, { input: { project, environment, requiredApprovals, changeRequestsEnabled } }, ctx) =>
      ctx.services.changeRequestConfig.update(project, environment, { changeRequestsEnabled, ...(requiredApprovals === null || requiredApprovals === undefined ? {} : { requiredApprovals }) }),
  }),
}));
