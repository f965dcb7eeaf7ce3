import { z } from 'zod';
import { contextFieldCreateSchema } from '../context/context-field.service';
import { strategyPayloadSchemas } from '../features/feature-strategy.schemas';
import { featureVariantsSchema } from '../features/variants';
import { tagTypeCreateSchema } from '../tags/tag.service';
import { description, urlFriendlyName } from '../validation';

/**
 * The import payload (spec "Import payload"; Unleash's `exportResultSchema` for `data`): what the batch export
 * produces and the batch import and its validation read. Every item is checked with the rules its direct edit uses
 * (a feature's name and metadata, a strategy, a context field, a tag type, environment variants), so an import can
 * never store what the API would refuse. Properties Unleash's export carries but an import does not use (a feature's
 * `createdAt`, a context field's usage counts, ...) are accepted and ignored, so an Unleash export imports as it is.
 */

const name = z.string().min(1).max(100);
const ignored = z.unknown().optional();

/** A feature as exported: the metadata an import writes, plus what Unleash's feature shape also carries. */
const featureSchema = z.object({
  name: urlFriendlyName(1, 100),
  type: z.string().min(1).max(100).optional(),
  description: description.nullable().optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
  project: z.string().max(100).optional(),
  // Read and ignored: the import writes the project and environment it is given, never these.
  archived: ignored, enabled: ignored, favorite: ignored, createdAt: ignored, archivedAt: ignored, lastSeenAt: ignored,
  environments: ignored, variants: ignored, strategies: ignored, tags: ignored, children: ignored, dependencies: ignored,
  createdByUserId: ignored,
}).strict();

/** A strategy as exported: a strategy as added directly, which must name its feature. */
const featureStrategySchema = strategyPayloadSchemas.create.extend({ featureName: name });

/** A feature's state in the exported environment: whether it is on, and its environment variants. */
const featureEnvironmentSchema = z.object({
  name: name.optional(),
  featureName: name.optional(),
  environment: z.string().max(100).optional(),
  enabled: z.boolean(),
  variants: featureVariantsSchema.optional(),
  type: ignored, sortOrder: ignored, variantCount: ignored, strategies: ignored, lastSeenAt: ignored, hasStrategies: ignored,
  hasEnabledStrategies: ignored,
}).strict().refine((e) => e.featureName !== undefined || e.name !== undefined, { message: 'The `featureName` property (or `name`) is required.', path: ['featureName'] });

const contextFieldSchema = contextFieldCreateSchema.extend({ createdAt: ignored, usedInFeatures: ignored, usedInProjects: ignored });

/** A tag of a feature: `tagType`/`tagValue`, or the deprecated `type`/`value`. */
const featureTagSchema = z.object({
  featureName: name,
  tagType: urlFriendlyName(2, 50).optional(),
  tagValue: z.string().trim().min(2).max(50).optional(),
  type: urlFriendlyName(2, 50).optional(),
  value: z.string().trim().min(2).max(50).optional(),
  createdByUserId: ignored,
}).strict().refine((t) => t.tagValue !== undefined || t.value !== undefined, { message: 'The `tagValue` property is required.', path: ['tagValue'] });

const segmentSchema = z.object({ id: z.number().int().min(1).max(2_147_483_647), name: z.string().min(1).max(255) }).strict();

const dependencySchema = z.object({
  feature: name,
  dependencies: z.array(z.object({
    feature: name,
    enabled: z.boolean().optional(),
    variants: z.array(z.string().min(1).max(100)).max(100).optional(),
  }).strict()).max(100),
}).strict();

/**
 * Lists are bounded by the body limit (500 kB by default, IMPORT_BODY_LIMIT) long before these caps, which only keep a
 * configured larger limit from making one request unbounded.
 */
const MAX_ITEMS = 50_000;

export const importDataSchema = z.object({
  features: z.array(featureSchema).max(MAX_ITEMS),
  featureStrategies: z.array(featureStrategySchema).max(MAX_ITEMS),
  featureEnvironments: z.array(featureEnvironmentSchema).max(MAX_ITEMS).optional(),
  contextFields: z.array(contextFieldSchema).max(MAX_ITEMS).optional(),
  featureTags: z.array(featureTagSchema).max(MAX_ITEMS).optional(),
  segments: z.array(segmentSchema).max(MAX_ITEMS).optional(),
  tagTypes: z.array(tagTypeCreateSchema).max(MAX_ITEMS),
  dependencies: z.array(dependencySchema).max(MAX_ITEMS).optional(),
}).strict();

export const importSchema = z.object({
  project: z.string().min(1).max(100),
  environment: z.string().min(1).max(100),
  data: importDataSchema,
}).strict();

export type ImportInput = z.input<typeof importSchema>;
export type ImportRequest = z.output<typeof importSchema>;
export type ImportData = ImportRequest['data'];
export type ImportFeature = ImportData['features'][number];
export type ImportStrategy = ImportData['featureStrategies'][number];
export type ImportFeatureEnvironment = NonNullable<ImportData['featureEnvironments']>[number];
export type ImportContextField = NonNullable<ImportData['contextFields']>[number];

/** The tag of a feature tag item, whichever spelling it uses (`tagType` defaults to `simple`, as a new tag's type does). */
export const tagOf = (t: NonNullable<ImportData['featureTags']>[number]) => ({ type: t.tagType ?? t.type ?? 'simple', value: (t.tagValue ?? t.value) as string });

/** The feature a featureEnvironments item is about (`featureName`, or `name` as Unleash's export fills it). */
export const featureOfEnvironment = (e: ImportFeatureEnvironment) => (e.featureName ?? e.name) as string;
