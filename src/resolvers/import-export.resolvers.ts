import { exportSchema } from '../domain/import-export/import-export.service';
import type { FieldDifference, ImportChange, ImportItem, ImportResult, ImportValidation, PlannedStrategy } from '../domain/import-export/import-export.shapes';
import { importSchema } from '../domain/import-export/import-payload';
import { builder } from './builder';
import { LIST_MULTIPLIER, WEIGHTS } from './cost';
import { FeatureStrategyRef, FeatureVariantRef, StrategyVariantRef } from './feature-environments.resolvers';
import { FeatureDependencyRef } from './features.resolvers';
import { defined } from './input';
import { zodInput } from './zod-input';
import { ConstraintRef } from './constraints';
import { TagRef } from './tags.resolvers';

const ImportItemRef = builder.objectRef<ImportItem>('ImportItem').implement({
  description: 'One line of an import validation: a message and the names it is about.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What was found, as Unleash words it.' }),
    affectedItems: t.exposeStringList('affectedItems', { description: 'The features, strategies, fields or permissions the message is about.' }),
  }),
});

const FieldDifferenceRef = builder.objectRef<FieldDifference>('ImportFieldDifference').implement({
  description: 'A property of a feature an import would change.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'type, description, impressionData or stale.' }),
    before: t.field({ type: 'JSON', nullable: true, description: 'Its value now.', resolve: (d) => d.before }),
    after: t.field({ type: 'JSON', nullable: true, description: 'Its value after the import.', resolve: (d) => d.after }),
  }),
});

const PlannedStrategyRef = builder.objectRef<PlannedStrategy>('ImportedStrategy').implement({
  description: 'A strategy an import would add (it gets its id when written).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Strategy type.' }),
    title: t.exposeString('title', { nullable: true, description: 'Optional title.' }),
    disabled: t.exposeBoolean('disabled', { description: 'Added switched off.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Position among the feature\'s strategies in the environment.' }),
    parameters: t.field({ type: 'JSON', description: 'Parameters, by name.', resolve: (s) => s.parameters }),
    constraints: t.field({ type: [ConstraintRef], description: 'Constraints, in stored form.', resolve: (s) => s.constraints }),
    variants: t.field({ type: [StrategyVariantRef], description: 'Strategy variants, weights resolved.', resolve: (s) => s.variants }),
    segments: t.exposeIntList('segments', { description: 'Ids of the segments on this instance it would use.' }),
  }),
});

const StrategyChangesRef = builder.objectRef<ImportChange['strategies']>('ImportStrategyChanges').implement({
  description: 'The strategies of a feature in the import\'s environment that an import would add and remove (equal ones are kept).',
  fields: (t) => ({
    added: t.field({ type: [PlannedStrategyRef], description: 'Strategies it would add.', resolve: (s) => s.added }),
    removed: t.field({ type: [FeatureStrategyRef], description: 'Strategies it would remove.', resolve: (s) => s.removed }),
  }),
});

const EnabledChangeRef = builder.objectRef<{ before: boolean; after: boolean }>('ImportEnabledChange').implement({
  description: 'A switch of the feature in the import\'s environment.',
  fields: (t) => ({
    before: t.exposeBoolean('before', { description: 'On now.' }),
    after: t.exposeBoolean('after', { description: 'On after the import.' }),
  }),
});

const VariantsChangeRef = builder.objectRef<NonNullable<ImportChange['variants']>>('ImportVariantsChange').implement({
  description: 'A change of the feature\'s variants in the import\'s environment.',
  fields: (t) => ({
    before: t.field({ type: [FeatureVariantRef], description: 'Variants now.', resolve: (v) => v.before }),
    after: t.field({ type: [FeatureVariantRef], description: 'Variants after the import.', resolve: (v) => v.after }),
  }),
});

const TagChangesRef = builder.objectRef<ImportChange['tags']>('ImportTagChanges').implement({
  description: 'Tags an import would put on and take off a feature.',
  fields: (t) => ({
    added: t.field({ type: [TagRef], description: 'Tags it would add.', resolve: (x) => x.added }),
    removed: t.field({ type: [TagRef], description: 'Tags it would remove.', resolve: (x) => x.removed }),
  }),
});

const DependencyChangesRef = builder.objectRef<ImportChange['dependencies']>('ImportDependencyChanges').implement({
  description: 'Parent dependencies an import would add (or change) and remove.',
  fields: (t) => ({
    added: t.field({ type: [FeatureDependencyRef], description: 'Dependencies it would add or change.', resolve: (x) => x.added }),
    removed: t.field({ type: [FeatureDependencyRef], description: 'Dependencies it would remove.', resolve: (x) => x.removed }),
  }),
});

const FeatureImportChangeRef = builder.objectRef<ImportChange>('FeatureImportChange').implement({
  description: 'What an import would do (or did) to one feature.',
  fields: (t) => ({
    feature: t.exposeString('feature', { description: 'Feature name.' }),
    action: t.exposeString('action', { description: 'create (new), update (exists and something differs) or unchanged.' }),
    fields: t.field({ type: [FieldDifferenceRef], description: 'Properties that would change.', resolve: (c) => c.fields }),
    strategies: t.field({ type: StrategyChangesRef, description: 'Strategies added and removed in the environment.', resolve: (c) => c.strategies }),
    enabled: t.field({ type: EnabledChangeRef, nullable: true, description: 'The switch in the environment, when it changes.', resolve: (c) => c.enabled }),
    variants: t.field({ type: VariantsChangeRef, nullable: true, description: 'The variants in the environment, when they change.', resolve: (c) => c.variants }),
    tags: t.field({ type: TagChangesRef, description: 'Tags added and removed.', resolve: (c) => c.tags }),
    dependencies: t.field({ type: DependencyChangesRef, description: 'Parent dependencies added and removed.', resolve: (c) => c.dependencies }),
  }),
});

const ImportValidationRef = builder.objectRef<ImportValidation>('ImportValidation').implement({
  description: 'Whether an import payload can be imported into a project and environment, and what importing it would change.',
  fields: (t) => ({
    errors: t.field({ type: [ImportItemRef], description: 'Problems that refuse the import.', resolve: (r) => r.errors }),
    warnings: t.field({ type: [ImportItemRef], description: 'Things to know before importing (archived features left out, features overwritten, custom strategies used).', resolve: (r) => r.warnings }),
    permissions: t.field({ type: [ImportItemRef], description: 'The permissions the caller lacks for this import, by display name.', resolve: (r) => r.permissions }),
    changes: t.field({ type: [FeatureImportChangeRef], description: 'Per feature, what importing would change.', resolve: (r) => r.changes }),
  }),
});

const ImportOutcomeRef = builder.objectRef<ImportResult>('ImportOutcome').implement({
  description: 'What an import did.',
  fields: (t) => ({
    warnings: t.field({ type: [ImportItemRef], description: 'The warnings its validation gave.', resolve: (r) => r.warnings }),
    changes: t.field({ type: [FeatureImportChangeRef], description: 'Per feature, what it changed.', resolve: (r) => r.changes }),
  }),
});

const ImportInput = zodInput('ImportInput', importSchema, {
  description: 'An import payload: where to import, and what (the `data` the batch export produces).',
  descriptions: {
    project: 'The project to import into.',
    environment: 'The environment whose strategies, switch and variants are imported.',
  },
  fields: (t) => ({
    data: t.field({
      type: 'JSON', required: true,
      description: 'features, featureStrategies and tagTypes (required), featureEnvironments, contextFields, featureTags, segments and dependencies: what exportFeatures returns.',
    }),
  }),
});

// `downloadFile` is REST's (an attachment instead of a body).
const ExportInput = zodInput('ExportFeaturesInput', exportSchema, {
  description: 'The features to export (exactly one of features, tag or project) and the environment to export them from.',
  omit: ['downloadFile'],
  descriptions: {
    features: 'Feature names.',
    tag: 'Features with this tag, as `type:value`.',
    project: 'Every active feature of this project.',
    environment: 'The environment whose strategies, switch and variants are exported.',
  },
});

builder.queryFields((t) => ({
  validateImport: t.field({
    type: ImportValidationRef,
    description: 'Validates an import payload without writing anything: the errors that would refuse it, warnings, the permissions the caller lacks, and per feature what would change.',
    args: { input: t.arg({ type: ImportInput, required: true, description: 'The payload.' }) },
    complexity: { field: WEIGHTS.importValidation, multiplier: LIST_MULTIPLIER },
    resolve: (_root, { input }, ctx) => ctx.services.importExport.validate(input as never),
  }),
  exportFeatures: t.field({
    type: 'JSON',
    description: 'Exports features with their configuration in one environment, as the `data` of an import payload. Writes the features-exported event.',
    args: { input: t.arg({ type: ExportInput, required: true, description: 'What to export.' }) },
    complexity: WEIGHTS.exportFeatures,
    resolve: (_root, { input }, ctx) => ctx.services.importExport.export(defined(input) as never),
  }),
}));

builder.mutationFields((t) => ({
  importFeatures: t.field({
    type: ImportOutcomeRef,
    description: 'Imports a payload into a project and environment in one transaction (all or nothing), refused for what validateImport reports as errors or missing permissions. Event features-imported, and each change\'s own events.',
    args: { input: t.arg({ type: ImportInput, required: true, description: 'The payload.' }) },
    complexity: { field: WEIGHTS.importFeatures, multiplier: LIST_MULTIPLIER },
    resolve: (_root, { input }, ctx) => ctx.services.importExport.import(input as never),
  }),
}));
