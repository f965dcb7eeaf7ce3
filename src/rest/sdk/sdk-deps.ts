import type { Request } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { CredentialDoor } from '../../domain/access/credential-refusal';
import { ADMIN } from '../../domain/access/permissions';
import type { Principal } from '../../domain/access/principal';
import { NoAccessError } from '../../domain/errors';
import type { EventHub } from '../../domain/events/event-hub';
import type { VersionReader } from '../../domain/client-features/version-reader';
import type { SnapshotCache } from '../../domain/playground/snapshot-cache';
import type { Services } from '../../domain/services';
import type { Logger } from '../../logger';
import type { LastKnownPolicy } from '../../domain/last-known';

/**
 * What the SDK-facing doors (issue 14: `/api/client` for backend SDKs, `/api/frontend` for browser and mobile SDKs)
 * share with the app: one instance of each, built once by buildApp. Each router factory keeps its own per-app state
 * (the client-features cache, the metrics buffer) in its closure.
 */
export interface SdkDeps {
  orm: MikroORM;
  logger: Logger;
  eventHub: EventHub;
  /** Compiled evaluation snapshots, shared with the playground. */
  playgroundCache: SnapshotCache;
  /** The app's reader of `model_version`, shared with GraphQL's response cache (a router used alone makes its own). */
  modelVersions?: VersionReader;
  /** How often buffered client metrics are written (CLIENT_METRICS_FLUSH_MS). */
  metricsFlushMs: number;
  /** How long hourly client metrics are kept (CLIENT_METRICS_RETENTION_HOURS). */
  metricsRetentionHours: number;
  /** Answering from the last known state while the database is away (issue 42); without it, SDK doors need the database. */
  lastKnown?: LastKnownPolicy;
  /** The services of a principal outside any request (a registration held through an outage is written with them). */
  servicesFor?: (principal: Principal) => Services;
}

/** The API token (client, frontend or admin) of an SDK request, set by the SDK door before any SDK route runs. */
export function sdkPrincipal(req: Request): Principal {
  const scope = (req as Request & { scope?: { principal?: Principal } }).scope;
  if (!scope?.principal) throw new Error('SDK principal missing: route mounted outside the SDK door');
  return scope.principal;
}

/** The credentials an SDK door accepts (admin tokens open both doors), and its name in refusals. */
export interface SdkDoorRule {
  accepted: ReadonlyArray<'client' | 'frontend' | 'admin'>;
  name: string;
  /** Which door a refused credential's 401 names (src/domain/access/credential-refusal.ts). */
  credentialDoor: CredentialDoor;
}

/**
 * Why `principal` may not use an SDK door (a 403), or undefined when it may: only API tokens of the door's types. A
 * frontend token on the client API, a client token on the frontend API and any user credential are refused.
 */
export function sdkRefusal(principal: Principal, door: SdkDoorRule): NoAccessError | undefined {
  if (principal.kind === 'api-token' && door.accepted.includes(principal.tokenType ?? 'admin')) return undefined;
  return new NoAccessError(ADMIN, undefined, `The ${door.name} takes ${door.accepted.filter((t) => t !== 'admin').join(' or ')} tokens (and admin tokens); this credential cannot use it.`);
}

/** The credentials the client door accepts, and its name in refusals. */
export const CLIENT_DOOR: SdkDoorRule = { accepted: ['client', 'admin'], name: 'client API', credentialDoor: 'client' };
/** The credentials the frontend door accepts, and its name in refusals. */
export const FRONTEND_DOOR: SdkDoorRule = { accepted: ['frontend', 'admin'], name: 'frontend API', credentialDoor: 'frontend' };
