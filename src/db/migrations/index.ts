import { Migration0001Init } from './0001-init';
import { Migration0002FeatureModelIndexes } from './0002-feature-model-indexes';
import { Migration0003ContextFieldUsage } from './0003-context-field-usage';
import { Migration0004ModelVersion } from './0004-model-version';
import { Migration0005Access } from './0005-access';
import { Migration0007RoleNames } from './0007-role-names';
import { Migration0008ResetTokens } from './0008-reset-tokens';
import { Migration0009Settings } from './0009-settings';
import { Migration0010SignupTokens } from './0010-signup-tokens';
import { Migration0011Addons } from './0011-addons';
import { Migration0012AddonDeliveries } from './0012-addon-deliveries';
import { Migration0013ChangeRequestConfig } from './0013-change-request-config';
import { Migration0014ChangeRequests } from './0014-change-requests';
import { Migration0015ChangeRequestReviews } from './0015-change-request-reviews';
import { Migration0016ClientMetrics } from './0016-client-metrics';
import { Migration0017ClientFeaturesVersion } from './0017-client-features-version';
import { Migration0018ModelVersionNotify } from './0018-model-version-notify';
import { Migration0019OverviewVersion } from './0019-overview-version';
import { Migration0020IdentityById } from './0020-identity-by-id';
import { Migration0021ModelVersionAtCommit } from './0021-model-version-at-commit';
import { Migration0022RoleDescriptions } from './0022-role-descriptions';
import { Migration0023ClientRevisionLog } from './0023-client-revision-log';

/** Explicit, ordered migration list: no globbing, identical under tsx, jest and compiled dist/. */
export const migrationsList = [
  { name: '0001-init', class: Migration0001Init },
  { name: '0002-feature-model-indexes', class: Migration0002FeatureModelIndexes },
  { name: '0003-context-field-usage', class: Migration0003ContextFieldUsage },
  { name: '0004-model-version', class: Migration0004ModelVersion },
  { name: '0005-access', class: Migration0005Access },
  { name: '0007-role-names', class: Migration0007RoleNames },
  { name: '0008-reset-tokens', class: Migration0008ResetTokens },
  { name: '0009-settings', class: Migration0009Settings },
  { name: '0010-signup-tokens', class: Migration0010SignupTokens },
  { name: '0011-addons', class: Migration0011Addons },
  { name: '0012-addon-deliveries', class: Migration0012AddonDeliveries },
  { name: '0013-change-request-config', class: Migration0013ChangeRequestConfig },
  { name: '0014-change-requests', class: Migration0014ChangeRequests },
  { name: '0015-change-request-reviews', class: Migration0015ChangeRequestReviews },
  { name: '0016-client-metrics', class: Migration0016ClientMetrics },
  { name: '0017-client-features-version', class: Migration0017ClientFeaturesVersion },
  { name: '0018-model-version-notify', class: Migration0018ModelVersionNotify },
  { name: '0019-overview-version', class: Migration0019OverviewVersion },
  { name: '0020-identity-by-id', class: Migration0020IdentityById },
  { name: '0021-model-version-at-commit', class: Migration0021ModelVersionAtCommit },
  { name: '0022-role-descriptions', class: Migration0022RoleDescriptions },
  { name: '0023-client-revision-log', class: Migration0023ClientRevisionLog },
];
