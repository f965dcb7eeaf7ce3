import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { ApiToken, ApiTokenType } from './api-token.shapes';

export interface ApiTokenRow {
  id: number;
  token_name: string;
  type: string;
  projects: string[];
  environment: string;
  expires_at: Date | null;
  created_at: Date;
  seen_at: Date | null;
}

/** Every column but the secret's digest. */
export const TOKEN_COLUMNS = 'id, token_name, type, projects, environment, expires_at, created_at, seen_at';

export function toView(r: ApiTokenRow): ApiToken {
  const projects = r.projects.length ? r.projects : ['*'];
  return {
    id: r.id, tokenName: r.token_name, username: r.token_name, type: r.type as ApiTokenType, environment: r.environment,
    project: projects.length === 1 ? projects[0] : '[]', projects, expiresAt: isoOrNull(r.expires_at), createdAt: iso(r.created_at),
    seenAt: isoOrNull(r.seen_at), alias: null,
  };
}

/** Every API token, by id. */
export async function listApiTokens(em: EntityManager): Promise<ApiToken[]> {
  const rows: ApiTokenRow[] = await em.execute(`select ${TOKEN_COLUMNS} from api_tokens order by id`);
  return rows.map(toView);
}
