import { ApiTokenSchema } from './access/api-token.entity';
import { GroupSchema, GroupUserSchema } from './access/group.entity';
import { ResetTokenSchema } from './access/password-reset.entity';
import { PersonalAccessTokenSchema } from './access/personal-token.entity';
import { GroupRoleSchema, RoleUserSchema } from './access/project-access.entity';
import { PermissionSchema, RolePermissionSchema, RoleSchema } from './access/role.entity';
import { SamlMessageIdSchema, SamlSessionSchema } from './access/saml.entity';
import { UserSessionSchema } from './access/session.entity';
import { SettingSchema } from './access/setting.entity';
import { PublicSignupTokenSchema, PublicSignupTokenUserSchema } from './access/signup-token.entity';
import { UserLoginNameSchema, UserSchema } from './access/user.entity';
import { AddonDeliverySchema } from './addons/addon-delivery.entity';
import { AddonSchema } from './addons/addon.entity';
import { ChangeRequestChangeSchema, ChangeRequestCommentSchema, ChangeRequestReviewSchema, ChangeRequestSchema } from './change-requests/change-request.entity';
import { FeatureVersionSchema, HistoryHorizonSchema, SegmentVersionSchema } from './history/version.entity';
import { ClientChangeSchema, ClientRevisionHorizonSchema, ClientRevisionSchema } from './client-features/revision-log.entity';
import { ContextFieldSchema, ContextFieldUsageSchema } from './context/context-field.entity';
import { EnvironmentSchema } from './environments/environment.entity';
import { EventSchema } from './events/event.entity';
import { FeatureDependencySchema } from './features/feature-dependency.entity';
import { FeatureEnvironmentSchema } from './features/feature-environment.entity';
import { FeatureStrategySchema, FeatureStrategySegmentSchema } from './features/feature-strategy.entity';
import { FeatureTagSchema } from './features/feature-tag.entity';
import { FeatureSchema, FeatureTypeSchema } from './features/feature.entity';
import { ClientApplicationSchema, ClientInstanceSchema } from './metrics/application.entity';
import { ClientMetricsHourlySchema, ClientMetricsHourlyVariantSchema } from './metrics/client-metrics.entity';
import { FeatureLifecycleSchema } from './lifecycle/lifecycle.entity';
import { LastSeenVersionSchema, ModelVersionSchema } from './model-version.entity';
import { ProjectEnvironmentSchema, ProjectSchema } from './projects/project.entity';
import { SegmentSchema } from './segments/segment.entity';
import { StrategyDefinitionSchema } from './strategies/strategy-definition.entity';
import { TagSchema, TagTypeSchema } from './tags/tag.entity';
import { UnknownFlagSchema } from './unknown-flags/unknown-flag.entity';

/**
 * Every table's entity (MikroORM's `mikro_orm_migrations` aside), as the ORM is given them. The migrations make the
 * tables; test/e2e/entities.test.ts compares the migrated database with these and fails on any drift.
 */
export const entities = [
  // The first ten, in their former order.
  ApiTokenSchema, EventSchema, EnvironmentSchema, ProjectSchema, ProjectEnvironmentSchema, ContextFieldSchema, TagTypeSchema, TagSchema,
  FeatureSchema, FeatureTypeSchema,
  // access
  UserSchema, UserLoginNameSchema, UserSessionSchema, PersonalAccessTokenSchema, PermissionSchema, RoleSchema, RolePermissionSchema,
  RoleUserSchema, GroupSchema, GroupUserSchema, GroupRoleSchema, ResetTokenSchema, PublicSignupTokenSchema, PublicSignupTokenUserSchema,
  SamlMessageIdSchema, SamlSessionSchema, SettingSchema,
  // the feature model
  FeatureEnvironmentSchema, FeatureStrategySchema, FeatureStrategySegmentSchema, FeatureDependencySchema, FeatureTagSchema,
  SegmentSchema, StrategyDefinitionSchema, ContextFieldUsageSchema,
  // addons, change requests, SDK metrics, the client revision log, the counters
  AddonSchema, AddonDeliverySchema,
  ChangeRequestSchema, ChangeRequestChangeSchema, ChangeRequestCommentSchema, ChangeRequestReviewSchema,
  ClientApplicationSchema, ClientInstanceSchema, ClientMetricsHourlySchema, ClientMetricsHourlyVariantSchema,
  ClientRevisionSchema, ClientChangeSchema, ClientRevisionHorizonSchema,
  // versions (issue 43)
  FeatureVersionSchema, SegmentVersionSchema, HistoryHorizonSchema,
  // flag lifecycle and unknown flags (issue 44)
  FeatureLifecycleSchema, UnknownFlagSchema,
  ModelVersionSchema, LastSeenVersionSchema,
];
