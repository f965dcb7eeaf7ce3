import { z } from 'zod';
import { PROJECT_MODES } from '../../../domain/projects/project.read-model';
import { CHANGE_REQUEST_STATES } from '../../../domain/change-requests/change-request-states';
import { changeSchema } from '../../../domain/change-requests/change-request.schemas';
import { STRATEGY_PARAMETER_TYPES } from '../../../domain/strategies/strategy-definition.entity';
import { named, timestamp } from '../../../domain/shapes';
import { Tag } from '../../../domain/tags/tag.shapes';
import { Constraint } from '../../../domain/features/constraint.shapes';
import { FeatureDependency, FeatureStrategy } from '../../../domain/features/feature.shapes';
import { Variant } from '../../../domain/features/variant.shapes';
import { PlaygroundFeature } from '../../../domain/playground/playground.shapes';
import { HealthReportFeature } from '../../../domain/projects/feature-overview.shapes';

/**
 * Answer shapes of the projects group: projects and their settings and health report, change requests, environments,
 * context fields, strategy types and segments. Objects are closed: every field the services send is declared here.
 * Shapes of the features and playground groups (a constraint, a feature strategy, a variant, a playground evaluation)
 * come from features.shapes.ts.
 */

/** A strategy configuration stored as JSON (a project environment's default strategy): open data. */
const StoredStrategy = z.record(z.string(), z.unknown()).describe('A strategy as configured: name, title, parameters, constraints, variants, segments');

// ---- projects -----------------------------------------------------------------------------------------------

export const ProjectFeatureNaming = named('ProjectFeatureNaming', z.object({
  pattern: z.string().nullable().describe('A JavaScript regular expression the whole feature name must match; null: any name'),
  example: z.string().nullable(),
  description: z.string().nullable(),
}));

const projectFields = {
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mode: z.enum(PROJECT_MODES),
  defaultStickiness: z.string(),
  featureLimit: z.number().int().nullable().describe('Most non-archived features the project may hold; null: no limit'),
  featureNaming: ProjectFeatureNaming,
  health: z.number().int().describe('Health rating 0–100, computed now'),
  createdAt: timestamp,
  updatedAt: timestamp.nullable(),
};

export const Project = named('Project', z.object(projectFields));

export const ProjectEnvironment = named('ProjectEnvironment', z.object({
  environment: z.string(),
  defaultStrategy: StoredStrategy.nullable().describe('The strategy added when a feature is switched on with none; null: a 100 % gradual rollout'),
}));

const featureCount = z.number().int().describe('Non-archived features of the project');
const favorite = z.literal(false).describe('Always false: favorites are not kept');

export const ProjectOverview = named('ProjectOverview', z.object({ ...projectFields, featureCount, favorite }));

export const ProjectDetails = named('ProjectDetails', z.object({
  version: z.literal(1),
  ...projectFields,
  featureCount,
  environments: z.array(ProjectEnvironment).describe('Its environments that are switched on'),
  favorite,
}));

export const ProjectHealthReport = named('ProjectHealthReport', z.object({
  version: z.literal(1),
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: z.enum(PROJECT_MODES),
  featureLimit: z.number().int().nullable(),
  members: z.number().int(),
  health: z.number().int(),
  environments: z.array(z.object({
    environment: z.string(),
    changeRequestsEnabled: z.boolean(),
    defaultStrategy: StoredStrategy.optional().describe('Only when the project environment has one configured'),
  })),
  features: z.array(HealthReportFeature).describe('Its non-archived features'),
  updatedAt: timestamp.nullable(),
  createdAt: timestamp,
  stats: z.object({
    avgTimeToProdCurrentWindow: z.number(),
    createdCurrentWindow: z.number().int(),
    createdPastWindow: z.number().int(),
    archivedCurrentWindow: z.number().int(),
    archivedPastWindow: z.number().int(),
    projectActivityCurrentWindow: z.number().int(),
    projectActivityPastWindow: z.number().int(),
    projectMembersAddedCurrentWindow: z.number().int(),
  }).describe('Current window: the last 30 days; past window: the 30 days before'),
  featureNaming: ProjectFeatureNaming,
  potentiallyStaleCount: z.number().int(),
  activeCount: z.number().int(),
  staleCount: z.number().int(),
  favorite,
}));

// ---- change requests ----------------------------------------------------------------------------------------

export const ChangeRequestConfig = named('ChangeRequestConfig', z.object({
  environment: z.string(),
  type: z.string().describe('The environment type'),
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int(),
}));

export const ChangeRequestActor = named('ChangeRequestActor', z.object({
  username: z.string().nullable(),
  imageUrl: z.string().nullable(),
}));

export const ChangeRequestApproval = named('ChangeRequestApproval', z.object({
  createdBy: z.object({ id: z.number().int().nullable(), username: z.string().nullable(), imageUrl: z.string().nullable() }),
  createdAt: timestamp,
}), 'An approval or a rejection');

export const ChangeRequestComment = named('ChangeRequestComment', z.object({
  id: z.number().int(),
  text: z.string(),
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
}));

/** One change as answered: its action, and its payload as the action's shape validated it. */
const [firstChange, ...otherChanges] = changeSchema.options.map((option) => z.object({
  id: z.number().int().describe('Changes when the change is edited'),
  action: option.shape.action,
  conflict: z.string().optional().describe('Only while the request is open and what the change relies on vanished or changed'),
  payload: option.shape.payload,
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
}));
export const ChangeRequestChange = named('ChangeRequestChange', z.discriminatedUnion('action', [firstChange, ...otherChanges]));

export const ChangeRequestDefaultChange = named('ChangeRequestDefaultChange', z.discriminatedUnion('action', [
  z.object({
    action: z.literal('addStrategy'),
    payload: z.object({
      name: z.string(),
      title: z.string().nullable().optional(),
      disabled: z.boolean().optional(),
      parameters: z.record(z.string(), z.string()),
      constraints: z.array(z.record(z.string(), z.unknown())).describe('As the project environment’s default strategy has them'),
      variants: z.array(z.record(z.string(), z.unknown())).optional().describe('As the project environment’s default strategy has them'),
      segments: z.array(z.number()).optional(),
    }).describe('The project environment’s default strategy, or a 100 % gradual rollout'),
  }),
  z.object({ action: z.literal('updateEnabled'), payload: z.object({ enabled: z.literal(false) }) }),
]), 'A background change applying the request makes to avoid an invalid state');

export const ChangeRequest = named('ChangeRequest', z.object({
  id: z.number().int(),
  title: z.string(),
  environment: z.string(),
  minApprovals: z.number().int(),
  project: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  features: z.array(z.object({
    name: z.string(),
    conflict: z.string().optional(),
    changes: z.array(ChangeRequestChange),
    defaultChange: ChangeRequestDefaultChange.optional(),
  })),
  segments: z.array(z.object({ id: z.number().int(), name: z.string(), changes: z.array(ChangeRequestChange) })),
  approvals: z.array(ChangeRequestApproval),
  rejections: z.array(ChangeRequestApproval),
  comments: z.array(ChangeRequestComment),
  createdBy: ChangeRequestActor,
  createdAt: timestamp,
  schedule: z.object({
    scheduledAt: timestamp,
    status: z.enum(['pending', 'failed']),
    failureReason: z.string().nullable(),
  }).optional().describe('Only when the state is Scheduled'),
}));

const PreviewConfiguration = z.object({
  enabled: z.boolean(),
  strategies: z.array(FeatureStrategy),
  variants: z.array(Variant),
  dependencies: z.array(FeatureDependency),
});

export const ChangeRequestPreview = named('ChangeRequestPreview', z.object({
  id: z.number().int(),
  project: z.string(),
  environment: z.string(),
  features: z.array(z.object({
    name: z.string(),
    project: z.string(),
    reasons: z.array(z.enum(['change', 'segment', 'parent'])).describe('A change names it, it uses a changed segment, or it depends on a feature in the preview'),
    before: PreviewConfiguration.nullable().describe('Null: the feature is not active now'),
    after: PreviewConfiguration.nullable().describe('Null: the request archives it (or it is not active now)'),
    results: z.array(z.object({
      context: z.record(z.string(), z.unknown()).describe('The context as sent'),
      before: PlaygroundFeature.nullable(),
      after: PlaygroundFeature.nullable(),
      changed: z.boolean().describe('`isEnabled` or the variant name differs'),
    })).describe('One per context, in the order sent'),
  })),
  changedCount: z.number().int(),
  warnings: z.array(z.object({
    changeId: z.number().int(),
    action: z.string(),
    feature: z.string().nullable(),
    message: z.string(),
  })).describe('Changes left out because applying them would be refused now'),
}));

// ---- environments, context fields, strategy types, segments -------------------------------------------------

export const Environment = named('Environment', z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number().int(),
}));

export const LegalValue = named('LegalValue', z.object({ value: z.string(), description: z.string().optional() }));

export const ContextField = named('ContextField', z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number().int(),
  legalValues: z.array(LegalValue),
  createdAt: timestamp,
  usedInFeatures: z.number().int(),
  usedInProjects: z.number().int(),
}));

export const StrategyParameter = named('StrategyParameter', z.object({
  name: z.string(),
  type: z.enum(STRATEGY_PARAMETER_TYPES),
  description: z.string(),
  required: z.boolean(),
}));

export const StrategyDefinition = named('StrategyDefinition', z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean().describe('False for the built-in strategy types'),
  deprecated: z.boolean(),
  parameters: z.array(StrategyParameter),
}));

export const Segment = named('Segment', z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable().describe('Null for a segment every project may use'),
  constraints: z.array(Constraint),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  usedInFeatures: z.number().int(),
  usedInProjects: z.number().int(),
}));

export const SegmentStrategy = named('SegmentStrategy', z.object({
  id: z.string(),
  featureName: z.string(),
  projectId: z.string(),
  environment: z.string(),
  strategyName: z.string(),
}));
