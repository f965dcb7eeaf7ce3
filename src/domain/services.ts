import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessService } from './access/access.service';
import { AddonService } from './addons/addon.service';
import { ApiTokenService } from './access/api-token.service';
import { GroupService } from './access/group.service';
import { PersonalTokenService } from './access/personal-token.service';
import { ProjectAccessService } from './access/project-access.service';
import { RoleService } from './access/role.service';
import { SignupTokenService } from './access/signup-token.service';
import { SamlSettingsService } from './access/saml-settings.service';
import { UserService } from './access/user.service';
import type { Principal } from './access/principal';
import { BackupService, type BackupSource } from './backup/backup.service';
import { ChangeRequestConfigService } from './change-requests/change-request-config.service';
import { ChangeRequestService } from './change-requests/change-request.service';
import { ChangeRequestPreviewService } from './change-requests/change-request-preview.service';
import { ContextFieldService } from './context/context-field.service';
import { EnvironmentService } from './environments/environment.service';
import type { EventHub } from './events/event-hub';
import { EventService } from './events/event.service';
import { FeatureMoveService } from './features/feature-move.service';
import { FeatureStrategyService } from './features/feature-strategy.service';
import { FeatureService } from './features/feature.service';
import { HistoryService } from './history/history.service';
import { LifecycleService } from './lifecycle/lifecycle.service';
import { UnknownFlagService } from './unknown-flags/unknown-flag.service';
import { RevertService } from './history/revert.service';
import { PlaygroundService } from './playground/playground.service';
import { SnapshotCache } from './playground/snapshot-cache';
import { ImportExportService } from './import-export/import-export.service';
import { FeatureOverviewCache } from './projects/feature-overview';
import { HealthReportService } from './projects/health-report.service';
import { ClientMetricsService } from './metrics/client-metrics.service';
import { StateExportService } from './import-export/state-export.service';
import { ProjectService } from './projects/project.service';
import { SegmentService } from './segments/segment.service';
import { StrategyDefinitionService } from './strategies/strategy-definition.service';
import { TagService } from './tags/tag.service';
import { UiConfigService, type ServicePackage } from './ui-config/ui-config.service';

/** Composition root: the services of one request, sharing its EntityManager fork and principal. */
export interface ServiceOptions {
  /** D9: most combinations one advanced playground request may evaluate (default 15000). */
  playgroundCombinationLimit?: number;
  /** Compiled playground snapshots, shared by the requests of one app instance. */
  playgroundCache?: SnapshotCache;
  /** Projects' feature overviews (the feature list and health report), shared by the requests of one app instance. */
  overviewCache?: FeatureOverviewCache;
  /** Called after a token is revoked or changed here, so this instance forgets it at once. */
  onCredentialsRevoked?: () => void;
  /** The address people reach the service at, without a trailing slash: the base of the links it hands out. */
  publicUrl?: string;
  /** This instance's announcer of committed events (the live event stream reads it). */
  eventHub?: EventHub;
  /** Addon URLs may point at loopback and private addresses (ADDON_ALLOW_PRIVATE_URLS). */
  allowPrivateAddonUrls?: boolean;
  /** Told of each playground evaluation (the app's metrics). */
  onPlaygroundEvaluation?: (kind: 'playground' | 'advanced') => void;
  /** Where backups come from: the embedded database; undefined on PostgreSQL (pg_dump does it). */
  backups?: BackupSource;
  /** The service's name, version and description, as the UI configuration shows them. */
  servicePackage?: ServicePackage;
}

export function createServices(em: EntityManager, principal: Principal, options: ServiceOptions = {}) {
  const access = new AccessService(em, principal);
  const overviews = options.overviewCache ?? new FeatureOverviewCache();
  return {
    principal,
    access,
    environments: new EnvironmentService(em, principal, access),
    addons: new AddonService(em, principal, access, { allowPrivateUrls: options.allowPrivateAddonUrls ?? false }),
    projects: new ProjectService(em, principal, access),
    healthReports: new HealthReportService(em, overviews),
    contextFields: new ContextFieldService(em, principal, access),
    tags: new TagService(em, principal, access),
    features: new FeatureService(em, principal, access, overviews),
    featureStrategies: new FeatureStrategyService(em, principal, access),
    featureMoves: new FeatureMoveService(em, principal, access),
    history: new HistoryService(em),
    lifecycle: new LifecycleService(em, principal, access),
    reverts: new RevertService(em, principal, (tx) => {
      const txAccess = new AccessService(tx, principal);
      return {
        features: new FeatureService(tx, principal, txAccess, overviews),
        featureStrategies: new FeatureStrategyService(tx, principal, txAccess),
        featureMoves: new FeatureMoveService(tx, principal, txAccess),
        changeRequests: new ChangeRequestService(tx, principal, txAccess),
      };
    }),
    segments: new SegmentService(em, principal, access),
    strategies: new StrategyDefinitionService(em, principal, access),
    events: new EventService(em, options.eventHub),
    users: new UserService(em, principal, access, options.onCredentialsRevoked, options.publicUrl),
    personalTokens: new PersonalTokenService(em, principal, options.onCredentialsRevoked),
    apiTokens: new ApiTokenService(em, principal, access, options.onCredentialsRevoked),
    projectAccess: new ProjectAccessService(em, principal, access),
    roles: new RoleService(em, principal, access),
    groups: new GroupService(em, principal, access),
    signupTokens: new SignupTokenService(em, principal, access, options.publicUrl ?? 'http://localhost:4242'),
    samlSettings: new SamlSettingsService(em, principal, access, options.publicUrl ?? 'http://localhost:4242'),
    stateExport: new StateExportService(em, principal, access),
    backups: new BackupService(access, options.backups),
    changeRequestConfig: new ChangeRequestConfigService(em, principal, access),
    changeRequests: new ChangeRequestService(em, principal, access),
    importExport: new ImportExportService(em, principal, access),
    playground: new PlaygroundService(em, options.playgroundCombinationLimit, options.playgroundCache, options.onPlaygroundEvaluation),
    clientMetrics: new ClientMetricsService(em, principal, access),
    unknownFlags: new UnknownFlagService(em),
    uiConfig: new UiConfigService(options.publicUrl ?? 'http://localhost:4242', options.servicePackage),
    changeRequestPreview: new ChangeRequestPreviewService(em, new ChangeRequestService(em, principal, access), options.playgroundCombinationLimit),
  };
}

export type Services = ReturnType<typeof createServices>;
