import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import { NotFoundError } from '../errors';
import { ApiTokenSchema, type ApiTokenRow } from './api-token.entity';
import { TOKEN_COLUMNS, type ApiTokenDbRow } from './api-token.read-model';
import { hashToken } from './password';

/**
 * The SQL of API tokens (api-token.service.ts has the rules). A token is stored by the digest of its secret only.
 * Deletes and the start-up writes go through the ORM; the rest stays SQL: `toView` maps the raw rows of the load and of
 * the `returning` clauses alike, the projects array is built from JSON, and `for key share` is no lock the ORM takes.
 */

/** The token addressed by its secret or its id, or 404; `lock` takes its row lock. */
export async function loadApiToken(em: EntityManager, ref: string, lock?: RowLock): Promise<ApiTokenDbRow> {
  const [row]: ApiTokenDbRow[] = /^\d{1,9}$/.test(ref)
    ? await em.execute(`select ${TOKEN_COLUMNS} from api_tokens where id = ?${lockClause(lock)}`, [Number(ref)])
    : ref.length <= 512 ? await em.execute(`select ${TOKEN_COLUMNS} from api_tokens where secret_hash = ?${lockClause(lock)}`, [hashToken(ref)]) : [];
  if (!row) throw new NotFoundError('Could not find an API token with that secret or id.');
  return row;
}

/** Whether the environment exists, holding it `for key share` until commit. */
export async function shareEnvironment(tx: EntityManager, environment: string): Promise<boolean> {
  const env: unknown[] = await tx.execute('select 1 from environments where name = ? for key share', [environment]);
  return env.length > 0;
}

/** Which of these projects exist, each held `for key share` until commit. */
export async function shareProjects(tx: EntityManager, projects: string[]): Promise<Set<string>> {
  const found: Array<{ id: string }> = await tx.execute('select id from projects where id in (?) for key share', [projects]);
  return new Set(found.map((f) => f.id));
}

export interface NewApiToken {
  secretHash: string;
  tokenName: string;
  type: string;
  projects: string[];
  environment: string;
  expiresAt: Date | null;
  createdBy: string;
  createdByUserId: number | null;
}

export async function insertApiToken(tx: EntityManager, t: NewApiToken): Promise<ApiTokenDbRow> {
  const [row]: ApiTokenDbRow[] = await tx.execute(
    `insert into api_tokens (secret_hash, token_name, type, projects, environment, expires_at, created_by, created_by_user_id)
     values (?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?) returning ${TOKEN_COLUMNS}`,
    [t.secretHash, t.tokenName, t.type, JSON.stringify(t.projects), t.environment, t.expiresAt, t.createdBy, t.createdByUserId],
  );
  return row;
}

export async function setApiTokenExpiry(tx: EntityManager, id: number, expiresAt: Date): Promise<ApiTokenDbRow> {
  const [updated]: ApiTokenDbRow[] = await tx.execute(`update api_tokens set expires_at = ? where id = ? returning ${TOKEN_COLUMNS}`, [expiresAt, id]);
  return updated;
}

export async function deleteApiToken(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(ApiTokenSchema, { id });
}

/** Whether a token with this secret digest exists. */
export async function apiTokenExists(em: EntityManager, secretHash: string): Promise<boolean> {
  return (await em.count(ApiTokenSchema, { secretHash })) > 0;
}

/** An admin token (every project and environment) with this secret digest, written by the caller's next flush. */
export function createAdminToken(em: EntityManager, secretHash: string): ApiTokenRow {
  return em.create(ApiTokenSchema, { secretHash, tokenName: 'admin', type: 'admin', projects: ['*'], environment: '*' });
}
