import type { UnknownFlag } from '../domain/unknown-flags/unknown-flag.shapes';
import { KEEP_DAYS, MAX_UNKNOWN_NAMES } from '../domain/unknown-flags/unknown-flag.shapes';
import { builder } from './builder';

/** Unknown flags (issue 44); REST: GET /api/admin/metrics/unknown-flags. */
const UnknownFlagRef = builder.objectRef<UnknownFlag>('UnknownFlag').implement({
  description: 'A flag name an SDK reported in its metrics that no flag has, per application and environment.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name reported.' }),
    appName: t.exposeString('appName', { description: 'The application that reported it.' }),
    environment: t.exposeString('environment', { description: 'The environment of the reporting token.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', description: 'Its latest report.' }),
  }),
});

builder.queryFields((t) => ({
  unknownFlags: t.field({
    type: [UnknownFlagRef],
    description: `Names SDKs reported that no flag has, newest report first (kept ${KEEP_DAYS} days, at most ${MAX_UNKNOWN_NAMES} names; REST: GET /api/admin/metrics/unknown-flags).`,
    resolve: (_root, _args, ctx) => ctx.services.unknownFlags.list(),
  }),
}));
