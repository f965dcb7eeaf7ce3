import { z } from 'zod';
import { KEEP_DAYS, MAX_UNKNOWN_NAMES, UnknownFlag } from '../../../domain/unknown-flags/unknown-flag.shapes';
import type { RouteDocs } from '../describe';

/** Unknown flags (issue 44), at Unleash 7.2's path. */
export const UNKNOWN_FLAG_DOCS: RouteDocs = {
  'GET /api/admin/metrics/unknown-flags': {
    tag: 'Metrics', summary: 'List the flag names SDKs report that no flag has',
    description: `Per name, application and environment, the latest report, newest first: a typo in code, or a flag deleted while code still asks for it. `
      + `Kept ${KEEP_DAYS} days, at most ${MAX_UNKNOWN_NAMES} names (the least recently reported go first); a name that became a flag is left out.`,
    responses: { 200: z.object({ unknownFlags: z.array(UnknownFlag) }) },
  },
};
