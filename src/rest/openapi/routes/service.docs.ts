import { UiConfig } from '../../../domain/ui-config/ui-config.shapes';
import type { RouteDocs } from '../describe';

/** Paths of the service itself rather than of its data. */
export const SERVICE_DOCS: RouteDocs = {
  'GET /api/admin/ui-config': {
    tag: 'Operations', summary: 'The service’s version, sign-in type, base URI and UI flags',
    responses: { 200: UiConfig },
  },
  'GET /api/admin/backup': {
    tag: 'Operations', summary: 'A backup of the embedded database', permission: 'ADMIN',
    description: 'A copy of the whole database as it stood between two transactions, as a gzip’d tar: first `flagdeck-backup.json` (the '
      + 'flagdeck and PostgreSQL versions, the migrations applied, each file’s size and SHA-256), then the data folder. Restore it with '
      + '`DATA_DIR=<empty folder> npm run restore -- <file>`; `npm run backup -- <file>` calls this path and checks what it saved. '
      + 'It holds every password hash and token: keep it as safe as the data folder. On PostgreSQL (DATABASE_URL) the answer is a 409 '
      + 'ConflictError: back that database up with pg_dump.',
    responses: {
      200: { description: 'The backup', contentType: 'application/gzip', headers: { 'Content-Disposition': 'attachment; filename="flagdeck-<UTC time>.backup"' } },
    },
    errors: ['ConflictError'],
  },
  'GET /internal-backstage/prometheus': {
    tag: 'Operations', auth: 'public',
    summary: 'Prometheus metrics',
    description: 'HTTP request durations by route and status, the database pool, audit events written by type, playground evaluations '
      + 'and process metrics, in the Prometheus text format. It names no flag, user or token, so it needs no credentials (as in Unleash); '
      + 'keep the path internal if the counts themselves are private.',
    responses: { 200: { description: 'The metrics', contentType: 'text/plain' } },
  },
};
