import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { ApiTokenRow } from './api-token.entity';
import type { PersonalAccessTokenRow } from './personal-token.entity';
import type { UserSessionRow } from './session.entity';
import type { UserRow } from './user.entity';

/**
 * The credential lookups of the Authenticator (authenticator.ts): each finds a secret by its SHA-256 digest through a
 * unique index and returns the stored digest with what the principal is made of. SQL: they run on requests, carry the
 * CREDENTIAL_LOOKUP comment tests count statements by, join the user, mark a token seen in the same statement and
 * compare with the database's clock.
 */

/**
 * The comment that starts each credential lookup: they run at most once per credential per cache period, so whether
 * a request pays one depends on timing, and tests that count a request's statements leave them out by it.
 */
export const CREDENTIAL_LOOKUP = '/* credential lookup */';

/** What a user's principal is made of. */
export type UserPrincipalRow = Pick<TableRow<UserRow>, 'id' | 'username' | 'email' | 'root_role_id'>;

export type ApiTokenCredentialRow = Pick<TableRow<ApiTokenRow>, 'id' | 'secret_hash' | 'token_name' | 'type' | 'projects' | 'environment'>;

/** The unexpired API token with this digest, if any. */
export async function apiTokenByDigest(em: EntityManager, digest: string): Promise<ApiTokenCredentialRow | undefined> {
  const [row]: ApiTokenCredentialRow[] = await em.execute(
    `${CREDENTIAL_LOOKUP} select id, secret_hash, token_name, type, projects, environment from api_tokens where secret_hash = ? and (expires_at is null or expires_at > now())`, [digest]);
  return row;
}

/** The user of the unexpired personal access token with this digest, if any; marks the token seen in the same statement. */
export async function personalTokenUser(em: EntityManager, digest: string): Promise<(UserPrincipalRow & Pick<TableRow<PersonalAccessTokenRow>, 'secret_hash'>) | undefined> {
  const [row]: Array<UserPrincipalRow & Pick<TableRow<PersonalAccessTokenRow>, 'secret_hash'>> = await em.execute(
    `${CREDENTIAL_LOOKUP} with t as (update personal_access_tokens set seen_at = now() where secret_hash = ? and expires_at > now() returning user_id, secret_hash)
     select t.secret_hash, u.id, u.username, u.email, u.root_role_id from t join users u on u.id = t.user_id`, [digest]);
  return row;
}

/** The user of the unexpired session with this digest, if any. */
export async function sessionUser(em: EntityManager, digest: string): Promise<(UserPrincipalRow & Pick<TableRow<UserSessionRow>, 'sid_hash'>) | undefined> {
  const [row]: Array<UserPrincipalRow & Pick<TableRow<UserSessionRow>, 'sid_hash'>> = await em.execute(
    `${CREDENTIAL_LOOKUP} select s.sid_hash, u.id, u.username, u.email, u.root_role_id from user_sessions s join users u on u.id = s.user_id
      where s.sid_hash = ? and s.expires_at > now()`, [digest]);
  return row;
}
