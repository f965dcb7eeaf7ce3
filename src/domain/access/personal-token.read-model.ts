import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';

/** A personal access token as listed: never its secret, which only the create response carries, once. */
export interface PersonalToken {
  id: number;
  description: string;
  expiresAt: string;
  createdAt: string;
  seenAt: string | null;
}

export interface PatRow {
  id: number;
  description: string;
  expires_at: Date;
  created_at: Date;
  seen_at: Date | null;
}

export const toToken = (r: PatRow): PersonalToken => ({
  id: r.id,
  description: r.description,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
  seenAt: isoOrNull(r.seen_at),
});

/** The user's tokens, by id. */
export async function listPersonalTokens(em: EntityManager, userId: number): Promise<PersonalToken[]> {
  const rows: PatRow[] = await em.execute('select id, description, expires_at, created_at, seen_at from personal_access_tokens where user_id = ? order by id', [userId]);
  return rows.map(toToken);
}
