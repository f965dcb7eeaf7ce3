import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiTokenSchema } from './api-token.entity';
import { generateAdminToken, hashToken } from './api-token.service';
import { hashPassword } from './password';
import { ROLE_ADMIN } from './permissions';
import { generatePassword } from './user.service';

/**
 * The admin token and user `admin` a start generates when none exist (defect 8 of the security review). Their secrets
 * are printed once and kept nowhere, so the service makes them only once its port is bound.
 */
export interface GeneratedCredentials {
  /** The admin API token created because no admin token existed. */
  token: { id: number; secret: string } | null;
  /** User `admin`, created with this password because no user existed. */
  password: { userId: number; password: string } | null;
  /** When they were created (ISO 8601). */
  createdAt: string;
}

/**
 * Start-up, once the port is bound: the admin token and user `admin` that are missing, in one transaction. The caller
 * runs it alone among starting instances (the start-up lock on PostgreSQL).
 */
export async function createGeneratedCredentials(em: EntityManager): Promise<GeneratedCredentials> {
  const fork = em.fork();
  const [have]: Array<{ token: boolean; user: boolean }> = await fork.execute(
    `select exists (select 1 from api_tokens where type = 'admin') as token, exists (select 1 from users) as "user"`);
  const created: GeneratedCredentials = { token: null, password: null, createdAt: new Date().toISOString() };
  if (have.token && have.user) return created;
  const secret = have.token ? null : generateAdminToken();
  const password = have.user ? null : generatePassword();
  // scrypt takes tens of milliseconds and no database: hashed before the transaction, which stays short.
  const passwordHash = password === null ? null : await hashPassword(password);
  await fork.transactional(async (tx) => {
    if (secret !== null) {
      const token = tx.create(ApiTokenSchema, { secretHash: hashToken(secret), tokenName: 'admin', type: 'admin', projects: ['*'], environment: '*' });
      await tx.flush();
      created.token = { id: token.id, secret };
    }
    if (password !== null) {
      const [row]: Array<{ id: number }> = await tx.execute(
        `insert into users (name, username, password_hash, root_role_id) select 'Admin', 'admin', ?, ? where not exists (select 1 from users) returning id`,
        [passwordHash, ROLE_ADMIN]);
      if (row) created.password = { userId: row.id, password };
    }
  });
  return created;
}

/** What a start prints about the credentials it generated: their secrets, with how to use them. */
export function generatedBanner(created: GeneratedCredentials, port: number): string {
  let text = '';
  if (created.token) {
    const { secret } = created.token;
    text += `\nNo admin API token existed, so one was created. It is shown only this once:\n\n    ${secret}\n\nTry: curl -H "Authorization: ${secret}" http://localhost:${port}/api/admin/tags\n\n`;
  }
  if (created.password) {
    text += `No user existed, so user "admin" was created. Its password is shown only this once:\n\n    ${created.password.password}\n\nLog in: curl -c cookies -H 'Content-Type: application/json' -d '{"username":"admin","password":"…"}' http://localhost:${port}/auth/simple/login\n\n`;
  }
  return text;
}
