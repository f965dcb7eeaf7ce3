import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { TableRow } from '../rows';
import type { ApiTokenRow } from './api-token.entity';
import type { ApiToken } from './api-token.shapes';

/** A token row as TOKEN_COLUMNS read it. */
export type ApiTokenDbRow = Pick<TableRow<ApiTokenRow>, 'id' | 'token_name' | 'type' | 'projects' | 'environment' | 'expires_at' | 'created_at' | 'seen_at'>;

/** Every column but the secret's digest. */
export const TOKEN_COLUMNS = 'id, token_name, type, projects, environment, expires_at, created_at, seen_at';

export function toView(r: ApiTokenDbRow): ApiToken {
  const projects = r.projects.length ? r.projects : ['*'];
  return {
    id: r.id, tokenName: r.token_name, username: r.token_name, type: r.type, environment: r.environment,
    project: projects.length === 1 ? projects[0] : '[]', projects, expiresAt: isoOrNull(r.expires_at), createdAt: iso(r.created_at),
    seenAt: isoOrNull(r.seen_at), alias: null,
  };
}

/** Every API token, by id (SQL: `toView` maps raw rows, as the load and the `returning` clauses give them). */
export async function listApiTokens(em: EntityManager): Promise<ApiToken[]> {
  const rows: ApiTokenDbRow[] = await em.execute(`select ${TOKEN_COLUMNS} from api_tokens order by id`);
  return rows.map(toView);
}
