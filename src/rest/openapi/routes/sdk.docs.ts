import { z } from 'zod';
import {
  createSchema as createAddonSchema, deliveryQuery, updateSchema as updateAddonSchema,
} from '../../../domain/addons/addon.service';
import { exportSchema } from '../../../domain/import-export/import-export.service';
import { importSchema } from '../../../domain/import-export/import-payload';
import { updateSchema as updateApplicationSchema } from '../../../domain/metrics/client-metrics.service';
import { metricsSchema, registerSchema } from '../../../domain/metrics/metrics-input';
import { Addon, AddonDefinition, AddonDelivery, AddonDeliveryPage } from '../../../domain/addons/addon.shapes';
import { ClientFeature, ClientSegment } from '../../../domain/client-features/client-feature.shapes';
import { FrontendToggle } from '../../../domain/frontend/frontend.shapes';
import { ExportResult, ImportResult, ImportValidation } from '../../../domain/import-export/import-export.shapes';
import { StateExport } from '../../../domain/import-export/state-export.shapes';
import { Application, ApplicationDetails, FeatureMetricsBucket, FeatureUsage } from '../../../domain/metrics/application.shapes';
import { named } from '../../../domain/shapes';
import type { RouteDocs } from '../describe';

/**
 * Addons, applications and usage metrics, the batch export and import, the legacy state export, the client and
 * frontend APIs the SDKs call, and the health check. The answers' shapes are the domain's (each area's `*.shapes.ts`);
 * the envelopes only this door wraps them in are declared here.
 */

// ---- Answers' envelopes (only the REST door sends them) ----

const ApplicationFeatureUsage = named('ApplicationFeatureUsage', z.object({
  version: z.literal(1),
  maturity: z.literal('stable'),
  ...FeatureUsage.shape,
}), 'The use of a feature in the last hour per environment, and the applications seen using it');

const ApplicationFeatureMetrics = named('ApplicationFeatureMetrics', z.object({
  version: z.literal(1),
  maturity: z.literal('stable'),
  data: z.array(FeatureMetricsBucket),
}), 'A feature’s use hour by hour, per environment and application');

/** `query` of the client answer (src/rest/sdk/client-answers.ts, queryEcho). */
const ClientQuery = named('ClientQuery', z.object({
  tag: z.array(z.tuple([z.string(), z.string()])).optional(),
  project: z.array(z.string()).optional(),
  namePrefix: z.string().optional(),
  environment: z.string(),
  inlineSegmentConstraints: z.boolean(),
}), 'What the SDK asked for, as resolved against its token');

export const ClientFeaturesAnswer = named('ClientFeaturesAnswer', z.object({
  version: z.literal(2),
  features: z.array(ClientFeature),
  query: ClientQuery,
  segments: z.array(ClientSegment).optional().describe('Present when `Unleash-Client-Spec` is 4.2.0 or later; otherwise segment constraints are inlined'),
}));

/** The delta events' wire form (src/rest/sdk/client-delta.wire.ts). */
const eventId = z.number().int().describe('The revision the event reflects (events come in increasing order)');
const ClientDeltaEvent = named('ClientDeltaEvent', z.discriminatedUnion('type', [
  z.object({ eventId, type: z.literal('hydration'), features: z.array(ClientFeature), segments: z.array(ClientSegment) }),
  z.object({ eventId, type: z.literal('feature-updated'), feature: ClientFeature }),
  z.object({ eventId, type: z.literal('feature-removed'), featureName: z.string(), project: z.string() }),
  z.object({ eventId, type: z.literal('segment-updated'), segment: ClientSegment }),
  z.object({ eventId, type: z.literal('segment-removed'), segmentId: z.number().int() }),
]), 'One change of what an SDK holds; applied in order');

const ClientDelta = named('ClientDelta', z.object({ events: z.array(ClientDeltaEvent) }),
  'What an SDK lacks: a `hydration` (the whole state), or the changes since its revision');

export const FrontendAnswer = named('FrontendAnswer', z.object({ toggles: z.array(FrontendToggle) }), 'The features enabled for the context (only those)');

const HealthGood = z.object({ health: z.literal('GOOD') });
const HealthBad = z.object({ health: z.literal('BAD') });

// ---- Request bodies read without a zod schema of their own ----

const ClientMetrics = named('ClientMetrics', metricsSchema, 'A metrics report: the counts of one period of one SDK instance');
const ClientRegistration = named('ClientRegistration', registerSchema, 'An SDK instance announcing itself when it starts');

/** What the frontend API reads of a context (src/domain/frontend/frontend-context.ts reads it by hand). */
const contextValue = z.string().max(1000).nullable().optional();
const FrontendContext = named('FrontendContext', z.looseObject({
  appName: contextValue,
  environment: contextValue.describe('Ignored for frontend tokens, which have their own'),
  userId: contextValue,
  sessionId: contextValue,
  remoteAddress: contextValue,
  currentTime: contextValue.describe('RFC 3339 date and time to evaluate at (default: now)'),
  properties: z.record(z.string().max(100), contextValue).nullable().optional(),
}).describe('At most 100 fields (properties included), values of at most 1000 characters. Any other key is a property.'));
const frontendBody = z.object({ context: FrontendContext.nullable().optional() });

// ---- Query parameters ----

const flag = (what: string) => z.string().optional().describe(`Include ${what} (default true; \`false\` or \`0\` leaves them out)`);
const stateExportQuery = z.object({
  format: z.string().optional().describe('`yaml` answers YAML (`text/yaml`); anything else JSON'),
  download: z.string().optional().describe('`true` (or `1`): answer as a file to save (Content-Disposition); default false'),
  strategies: flag('custom strategy types'),
  featureToggles: flag('features, their strategies and environments'),
  projects: flag('projects'),
  tags: flag('tag types, tags and (with features) feature tags'),
  environments: flag('environments'),
});

const clientQuery = z.object({
  environment: z.string().max(200).optional().describe('Admin tokens only: the environment to read (default `default`); a client token reads its own'),
  project: z.array(z.string().min(1).max(200)).max(100).optional().describe('Repeatable: only these of the token’s projects'),
  namePrefix: z.string().max(200).optional().describe('Only features whose name starts with this'),
  tag: z.array(z.string().min(1).max(200)).max(100).optional().describe('Repeatable, `type:value`: only features that carry any of these tags'),
});

const frontendQuery = z.object({
  appName: z.string().max(1000).optional(),
  environment: z.string().max(1000).optional(),
  userId: z.string().max(1000).optional(),
  sessionId: z.string().max(1000).optional(),
  remoteAddress: z.string().max(1000).optional(),
  currentTime: z.string().max(1000).optional().describe('RFC 3339 date and time to evaluate at (default: now)'),
});

const applicationsQuery = z.object({ strategyName: z.string().optional().describe('Only applications whose SDKs implement this strategy') });
const rawMetricsQuery = z.object({ hoursBack: z.string().optional().describe('Hours to look back, 1 to 48 (anything else: 24)') });

// ---- Answers with headers ----

const ETAG = 'A digest of the answer; send it back in `If-None-Match` to get a 304 while nothing changed';
/** Issue 42: the SDK doors answer through a database outage from the last state they served. */
const STALE = 'Only while the database is away: the answer is the last state this instance served, which may be stale since this instant (RFC 3339)';
const notModified = { description: 'Not modified: the answer still has the ETag sent in `If-None-Match` (no body)', headers: { ETag: ETAG, 'Flagdeck-Stale-Since': STALE } };
const OUTAGE_NOTE = ' While the database is away, the answer is the last one this instance served for the same scope, marked by `Flagdeck-Stale-Since`; a scope it never served, or a token it has not verified within SDK_TOKEN_GRACE_SECONDS, gets 503 ServiceUnavailableError with `Retry-After`.';
const DOWNLOAD = '`attachment; filename="export-<date>_<time>.json"` (`.yml` for YAML) when a download was asked for';

const addons = 'Addons';
const metrics = 'Metrics';
const importExport = 'Import and export';
const client = 'Client API';
const frontend = 'Frontend API';

export const SDK_DOCS: RouteDocs = {
  // ---- Addons ----
  'GET /api/admin/addons': {
    tag: addons, summary: 'List addons and the providers they can use',
    responses: { 200: z.object({ addons: z.array(Addon), providers: z.array(AddonDefinition) }) },
  },
  'POST /api/admin/addons': {
    tag: addons, summary: 'Create an addon', body: createAddonSchema,
    description: 'Parameters are checked against the provider’s (see `providers` of the list). Addresses on loopback, private, link-local or metadata networks are refused unless the service allows them.',
    responses: { 201: { description: 'Created', schema: Addon, headers: { Location: 'The new addon, `addons/<id>`' } } },
  },
  'GET /api/admin/addons/:id': { tag: addons, summary: 'Get an addon', responses: { 200: Addon } },
  'PUT /api/admin/addons/:id': {
    tag: addons, summary: 'Update an addon', body: updateAddonSchema,
    description: 'Only the properties sent change; `null` empties one (a `null` description becomes an empty text). A sensitive parameter sent back as `*****` keeps its stored value.',
    responses: { 200: Addon },
  },
  'DELETE /api/admin/addons/:id': { tag: addons, summary: 'Delete an addon', responses: { 200: null } },
  'GET /api/admin/addons/:id/deliveries': {
    tag: addons, summary: 'List an addon’s deliveries, newest first', query: deliveryQuery,
    responses: { 200: AddonDeliveryPage },
  },
  'POST /api/admin/addons/:id/deliveries/:deliveryId/redeliver': {
    tag: addons, summary: 'Send a delivery’s event to its addon again',
    description: 'A new delivery with an id of its own, so a receiver that dropped the first as a repeat takes this one.',
    responses: { 201: AddonDelivery },
  },

  // ---- Applications and usage ----
  'GET /api/admin/metrics/applications': {
    tag: metrics, summary: 'List the applications SDKs registered', query: applicationsQuery,
    responses: { 200: z.object({ applications: z.array(Application) }) },
  },
  'GET /api/admin/metrics/applications/:appName': {
    tag: metrics, summary: 'Get an application with its instances, strategy types and the features it uses',
    responses: { 200: ApplicationDetails },
  },
  'POST /api/admin/metrics/applications/:appName': {
    tag: metrics, summary: 'Create an application or change its description, links and strategies',
    description: 'Properties absent stay as they are; `null` empties one.', body: updateApplicationSchema, bodyOptional: true,
    responses: { 202: null },
  },
  'DELETE /api/admin/metrics/applications/:appName': {
    tag: metrics, summary: 'Delete an application and its instances',
    description: 'Its metrics stay until they expire; its next report brings it back.', responses: { 200: null },
  },
  'GET /api/admin/client-metrics/features/:name': {
    tag: metrics, summary: 'Get a feature’s use in the last hour and the applications using it',
    description: 'An unknown feature answers with no usage.', responses: { 200: ApplicationFeatureUsage },
  },
  'GET /api/admin/client-metrics/features/:name/raw': {
    tag: metrics, summary: 'Get a feature’s use hour by hour, per environment and application', query: rawMetricsQuery,
    description: 'Hours without reports count 0. An unknown feature answers an empty list.', responses: { 200: ApplicationFeatureMetrics },
  },

  // ---- Batch export and import, legacy state export ----
  'POST /api/admin/features-batch/export': {
    tag: importExport, summary: 'Export features’ configuration in one environment', body: exportSchema,
    description: 'Choose the features with exactly one of `features`, `tag` (`type:value`) or `project`. The answer is the `data` an import takes.',
    responses: { 200: { description: 'OK', schema: ExportResult, headers: { 'Content-Disposition': DOWNLOAD.replace('a download was asked for', '`downloadFile` is true') } } },
    errors: ['NotFoundError'],
  },
  'POST /api/admin/features-batch/validate': {
    tag: importExport, summary: 'Check what importing features would do, without importing', body: importSchema,
    responses: { 200: ImportValidation },
  },
  'POST /api/admin/features-batch/import': {
    tag: importExport, summary: 'Import features into a project and environment',
    description: 'All or nothing: refused (403 naming every missing permission, or 400 with each validation error) before anything is written.',
    body: importSchema, responses: { 200: ImportResult }, errors: ['NotFoundError', 'NameExistsError'],
  },
  'GET /api/admin/state/export': {
    tag: importExport, summary: 'Export the whole configuration (deprecated: use the batch export)', permission: 'ADMIN', deprecated: true,
    query: stateExportQuery,
    responses: {
      200: {
        description: 'The export, as JSON or (with `format=yaml`) YAML',
        content: { 'application/json': StateExport, 'text/yaml': StateExport },
        headers: { 'Content-Disposition': DOWNLOAD },
      },
    },
  },

  // ---- Client API (backend SDKs) ----
  'GET /api/client/features': {
    tag: client, auth: 'client', summary: 'Get the features an SDK evaluates', query: clientQuery,
    description: 'The token decides the environment and the projects; the query narrows them. With an `Unleash-Client-Spec` header of 4.2.0 or later, segments are sent once in `segments` and strategies refer to them by id; otherwise their constraints are inlined into each strategy. Large answers are gzipped for clients that accept it.' + OUTAGE_NOTE,
    responses: { 200: { description: 'OK', schema: ClientFeaturesAnswer, headers: { ETag: ETAG, 'Flagdeck-Stale-Since': STALE } }, 304: notModified },
  },
  'GET /api/client/features/:name': {
    tag: client, auth: 'client', summary: 'Get one feature as SDKs evaluate it', query: clientQuery,
    responses: { 200: { description: 'OK', schema: ClientFeature, headers: { ETag: ETAG, 'Flagdeck-Stale-Since': STALE } }, 304: notModified },
  },
  'GET /api/client/delta': {
    tag: client, auth: 'client', summary: 'Get what changed since the SDK’s revision', query: clientQuery,
    description: 'Without `If-None-Match`: a `hydration` of the token’s scope (the features of `GET /api/client/features`, segments apart), with its revision in the ETag. With the ETag last received: the flags and segments that changed since, as the token sees them, or 304 when nothing it sees changed. A revision older than the log keeps (10,000 revisions), or an ETag of another scope, gets a hydration.' + OUTAGE_NOTE,
    responses: { 200: { description: 'OK', schema: ClientDelta, headers: { ETag: ETAG, 'Flagdeck-Stale-Since': STALE } }, 304: notModified },
  },
  'GET /api/client/streaming': {
    tag: client, auth: 'client', summary: 'Receive the features as server-sent events, then what changes', query: clientQuery,
    description: 'Events carry a `ClientDelta` body: `unleash-connected` with a `hydration` of the token’s scope, then `unleash-updated` with only the flags and segments that changed, after each change the token can see; `: keep-alive` comments in between. Each event’s `id` is the revision it brings the client to: a reconnect with `Last-Event-ID` is sent what it missed, or a hydration when the log no longer reaches it. Streams stay open while the database is away and carry the next change once it is back.' + OUTAGE_NOTE,
    responses: {
      200: { description: 'The event stream', contentType: 'text/event-stream', headers: { 'Flagdeck-Stale-Since': STALE } },
      204: { description: 'The service is stopping: connect to another instance' },
    },
    errors: ['TooManyRequestsError'],
  },
  'POST /api/client/register': {
    tag: client, auth: 'client', summary: 'Register an SDK instance', body: ClientRegistration,
    description: 'Unknown properties are accepted and ignored. The environment is the token’s (for admin tokens the body’s, else `default`). While the database is away the registration is held in memory (the latest per instance, up to 10,000) and written once it is back.',
    responses: { 202: null },
  },
  'POST /api/client/metrics': {
    tag: client, auth: 'client', summary: 'Report how often features were checked', body: ClientMetrics,
    description: 'Counted in memory and written a few seconds later (while the database is away, once it is back; up to 200,000 counts are held). Unknown properties are accepted and ignored.',
    responses: { 202: null },
  },

  // ---- Frontend API (browser and mobile SDKs) ----
  'GET /api/frontend': {
    tag: frontend, auth: 'frontend', summary: 'Get the features enabled for a context', query: frontendQuery,
    description: 'The context is the query string: the standard fields, `properties[name]=value` for a property, and any other parameter as a property too. The answer may be kept by the caller’s own cache for 2 seconds.' + OUTAGE_NOTE,
    responses: {
      200: { description: 'OK', schema: FrontendAnswer, headers: { ETag: ETAG, 'Cache-Control': '`private, max-age=2`', 'Flagdeck-Stale-Since': STALE } },
      304: notModified,
    },
  },
  'POST /api/frontend': {
    tag: frontend, auth: 'frontend', summary: 'Get the features enabled for a context sent in the body', body: frontendBody, bodyOptional: true,
    responses: { 200: { description: 'OK', schema: FrontendAnswer, headers: { ETag: 'A digest of the answer', 'Flagdeck-Stale-Since': STALE } } },
  },
  'POST /api/frontend/client/register': {
    tag: frontend, auth: 'frontend', summary: 'Register a frontend SDK instance', body: ClientRegistration, responses: { 200: null },
  },
  'POST /api/frontend/client/metrics': {
    tag: frontend, auth: 'frontend', summary: 'Report how often features were checked in a frontend SDK', body: ClientMetrics, responses: { 200: null },
  },

  // ---- Health ----
  'GET /health': {
    tag: 'Health', auth: 'public', summary: 'Check that the service can reach its database',
    responses: { 200: HealthGood, 503: { description: 'Service unavailable: the database cannot be reached', schema: HealthBad } },
  },
  'GET /health/live': {
    tag: 'Health', auth: 'public', summary: 'Check that the process works (liveness: an orchestrator restarts a process that fails it)',
    description: 'Answers without asking the database: a process waiting for its database is alive and needs no restart.',
    responses: { 200: HealthGood },
  },
  'GET /health/ready': {
    tag: 'Health', auth: 'public', summary: 'Check that the service can reach its database (readiness: send it traffic only while it passes)',
    description: 'One `select 1`, given at most 2 seconds: a database that does not answer in time counts as unreachable.',
    responses: { 200: HealthGood, 503: { description: 'Service unavailable: the database cannot be reached', schema: HealthBad } },
  },
};
