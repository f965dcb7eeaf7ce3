import { z } from 'zod';
import { named } from '../../../domain/shapes';
import type { RouteDocs } from '../describe';

/**
 * OpenFeature's remote evaluation protocol (issue 45), as the protocol's service/openapi.yaml defines it. Its answers
 * are described here rather than derived: they are the protocol's, not the service's.
 */
const tag = 'OpenFeature (OFREP)';

const OfrepContext = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe('The OpenFeature evaluation context: `targetingKey` is the user id (unless `userId` is given); `userId`, `sessionId`, `remoteAddress`, `currentTime`, `appName` and `environment` are the Unleash context\'s fields; every other key is a property, numbers and booleans as text.');
const OfrepRequest = z.object({ context: OfrepContext.optional() });

const Reason = z.enum(['STATIC', 'TARGETING_MATCH', 'SPLIT', 'DISABLED', 'DEFAULT'])
  .describe('STATIC: on without targeting; TARGETING_MATCH: a strategy matched the context (constraints, segments, user ids, addresses) or a variant override did; SPLIT: a rollout under 100% or a variant drawn by weight; DISABLED: the environment is off; DEFAULT: nothing matched, or a parent flag is not as required.');
const OfrepEvaluation = named('OfrepEvaluation', z.object({
  key: z.string(),
  value: z.unknown().optional().describe('A flag without variants: its enabled state. With variants: the variant\'s payload typed by its type (string and csv as text, number, json parsed), or the variant\'s name when it has none. Absent when such a flag is off: the caller\'s default applies.'),
  reason: Reason,
  variant: z.string().describe('`on` / `off` for a flag without variants; else the variant\'s name, or `disabled`.'),
  metadata: z.object({ project: z.string(), impressionData: z.boolean() }),
}), 'One flag as an OpenFeature SDK resolves it');
const EventStream = z.object({ type: z.literal('sse'), url: z.string(), inactivityDelaySec: z.number().int() });
const OfrepBulk = named('OfrepBulk', z.object({
  flags: z.array(OfrepEvaluation),
  metadata: z.object({}),
  eventStreams: z.array(EventStream).describe('Where a provider hears of changes (ADR 0008): a server-sent event stream that says `{"type":"refetchEvaluation"}` when a change is committed. Its address carries a ticket valid for 12 hours on this instance.'),
  refreshConnections: z.array(EventStream).describe('The same, under the name later drafts of ADR 0008 give it.'),
}), 'Every flag of the token\'s scope');
const OfrepFailure = named('OfrepFailure', z.object({
  key: z.string().optional(),
  errorCode: z.enum(['PARSE_ERROR', 'INVALID_CONTEXT', 'FLAG_NOT_FOUND', 'TARGETING_KEY_MISSING', 'GENERAL']),
  errorDetails: z.string(),
  id: z.string(), name: z.string(), message: z.string(), details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
}), 'OFREP\'s error, with the service\'s own error fields beside it');

export const OFREP_DOCS: RouteDocs = {
  'POST /ofrep/v1/evaluate/flags/:key': {
    tag, auth: 'sdk', summary: 'Evaluate one flag for an OpenFeature context',
    description: 'The flags the token reads are those the frontend API answers from (its environment and projects; an admin token names the environment in the context). '
      + 'An evaluation counts as an SDK\'s metrics report of one check (by the context\'s `appName`, else `openfeature`); a name no flag has is recorded among the unknown flags.',
    body: OfrepRequest, bodyOptional: true,
    responses: {
      200: OfrepEvaluation,
      400: { description: 'PARSE_ERROR (the body is not JSON) or INVALID_CONTEXT', schema: OfrepFailure },
      404: { description: 'FLAG_NOT_FOUND: no flag of that name in the token\'s scope', schema: OfrepFailure },
    },
  },
  'POST /ofrep/v1/evaluate/flags': {
    tag, auth: 'sdk', summary: 'Evaluate every flag for an OpenFeature context',
    description: 'Every flag of the token\'s scope, with an `ETag` (a digest of the answer): `If-None-Match` naming it, or the `flagConfigEtag` query parameter, is a 304 until something changes. '
      + 'Not counted as evaluations: a provider fetches the whole set to cache it.',
    query: z.object({ flagConfigEtag: z.string().optional().describe('The ETag of the answer the caller holds') }),
    body: OfrepRequest, bodyOptional: true,
    responses: {
      200: { description: 'OK', schema: OfrepBulk, headers: { ETag: 'A digest of the answer' } },
      304: null,
      400: { description: 'PARSE_ERROR (the body is not JSON) or INVALID_CONTEXT', schema: OfrepFailure },
    },
  },
  'GET /ofrep/v1/events': {
    tag, auth: 'public', summary: 'Hear of committed changes (server-sent events)',
    description: 'Opened at the address a bulk answer gives (its `ticket` signed by this instance, so it needs no token): `event: message` with `{"type":"refetchEvaluation","etag"}` each time a change is committed, its `id` the model version; a `Last-Event-ID` other than the current one is told at once. '
      + 'An expired or unknown ticket is a 401; more streams than the instance serves, a 429 with Retry-After.',
    query: z.object({ ticket: z.string().describe('From the bulk answer\'s `eventStreams`') }),
    responses: { 200: { description: 'The stream', contentType: 'text/event-stream' } },
    errors: ['AuthenticationRequired', 'TooManyRequestsError'],
  },
};
