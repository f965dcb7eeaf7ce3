import type { RouteDocs } from '../describe';

/** Paths of the service itself rather than of its data. */
export const SERVICE_DOCS: RouteDocs = {
  'GET /internal-backstage/prometheus': {
    tag: 'Operations', auth: 'public',
    summary: 'Prometheus metrics',
    description: 'HTTP request durations by route and status, the database pool, audit events written by type, playground evaluations '
      + 'and process metrics, in the Prometheus text format. It names no flag, user or token, so it needs no credentials (as in Unleash); '
      + 'keep the path internal if the counts themselves are private.',
    responses: { 200: { description: 'The metrics', contentType: 'text/plain' } },
  },
};
