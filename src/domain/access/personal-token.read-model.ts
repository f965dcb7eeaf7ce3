import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { TableRow } from '../rows';
import type { PersonalAccessTokenRow } from './personal-token.entity';
import type { PersonalAccessToken } from './personal-token.shapes';

/** A token row as the token queries read it: never the secret's digest. */
export type PatRow = Pick<TableRow<PersonalAccessTokenRow>, 'id' | 'description' | 'expires_at' | 'created_at' | 'seen_at'>;

export const toToken = (r: PatRow): PersonalAccessToken => ({
  id: r.id,
  description: r.description,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
  seenAt: isoOrNull(r.seen_at),
});

/** The user's tokens, by id (SQL: `toToken` maps raw rows, as the `returning` clauses give them). */
export async function listPersonalTokens(em: EntityManager, userId: number): Promise<PersonalAccessToken[]> {
  const rows: PatRow[] = await em.execute('select id, description, expires_at, created_at, seen_at from personal_access_tokens where user_id = ? order by id', [userId]);
  return rows.map(toToken);
}
