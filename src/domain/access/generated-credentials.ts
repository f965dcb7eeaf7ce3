import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import { AccessService } from './access.service';
import { generateAdminToken } from './api-token.service';
import { createAdminToken } from './api-token.store';
import { deleteUnshownRecord, existingCredentials, unshownRecords, writeUnshownRecord, type UnshownRecord } from './generated-credentials.store';
import { hashPassword, hashToken } from './password';
import { systemPrincipal, type Principal } from './principal';
import { generatePassword, UserService } from './user.service';
import { insertFirstAdmin, userIdByLoginName } from './user.store';

/**
 * The admin token and user `admin` a start generates when none exist (defect 8 of the security review). Their secrets
 * are printed once and kept nowhere, so each gets an "unshown" settings row in the transaction that creates it, removed
 * once stdout took the secret; a later start that finds one says how to recover, while the credential is still unused.
 */
const UNSHOWN = { token: 'generated-admin-token-unshown', password: 'generated-admin-password-unshown' } as const;

export interface GeneratedCredentials {
  /** The admin API token created because no admin token existed. */
  token: { id: number; secret: string } | null;
  /** User `admin`, created with this password because no user existed. */
  password: { userId: number; password: string } | null;
  /** When they were created (ISO 8601). */
  createdAt: string;
}

/** A generated credential whose secret was never confirmed written to stdout, and never used since. */
export interface UnshownCredential {
  kind: 'token' | 'password';
  /** The token's id, or the user's. */
  id: number;
  /** When it was generated (ISO 8601). */
  createdAt: string;
}

async function record(tx: EntityManager, kind: UnshownCredential['kind'], content: UnshownRecord): Promise<void> {
  await writeUnshownRecord(tx, UNSHOWN[kind], content);
}

/** Removes the unshown record of the credential `id` of this kind (a record of another one stays). */
async function forget(em: EntityManager, kind: UnshownCredential['kind'], id: number): Promise<void> {
  await deleteUnshownRecord(em.fork(), UNSHOWN[kind], id);
}

/**
 * Start-up, once the port is bound: the admin token and user `admin` that are missing, each with its unshown record,
 * in one transaction. The caller runs it alone among starting instances (the start-up lock on PostgreSQL).
 */
export async function createGeneratedCredentials(em: EntityManager): Promise<GeneratedCredentials> {
  const fork = em.fork();
  const have = await existingCredentials(fork);
  const created: GeneratedCredentials = { token: null, password: null, createdAt: new Date().toISOString() };
  if (have.token && have.user) return created;
  const secret = have.token ? null : generateAdminToken();
  const password = have.user ? null : generatePassword();
  // scrypt takes tens of milliseconds and no database: hashed before the transaction, which stays short.
  const passwordHash = password === null ? null : await hashPassword(password);
  await fork.transactional(async (tx) => {
    if (secret !== null) {
      const token = createAdminToken(tx, hashToken(secret));
      await tx.flush();
      created.token = { id: token.id, secret };
      await record(tx, 'token', { id: token.id, createdAt: created.createdAt });
    }
    if (password !== null) {
      const userId = await insertFirstAdmin(tx, passwordHash as string);
      if (userId !== undefined) {
        created.password = { userId, password };
        await record(tx, 'password', { id: userId, createdAt: created.createdAt });
      }
    }
  });
  return created;
}

/** The generated credentials of `created` as unshown ones (what to say when writing them failed). */
export function unshownOf(created: GeneratedCredentials): UnshownCredential[] {
  return [
    ...(created.token ? [{ kind: 'token' as const, id: created.token.id, createdAt: created.createdAt }] : []),
    ...(created.password ? [{ kind: 'password' as const, id: created.password.userId, createdAt: created.createdAt }] : []),
  ];
}

/** After the credentials of `created` were written to stdout: their unshown records go. */
export async function markShown(em: EntityManager, created: GeneratedCredentials): Promise<void> {
  for (const c of unshownOf(created)) await forget(em, c.kind, c.id);
}

/** A record as found at start, with what became of its credential since. */
export interface UnshownRecordState extends UnshownCredential {
  /** The token (or user) still exists. */
  exists: boolean;
  /** The token was used, or the user logged in, since. */
  used: boolean;
}

/** Records still worth a notice (the credential exists and nobody used it), and the others, which can go. */
export function settleRecords(found: UnshownRecordState[]): { unshown: UnshownCredential[]; settled: UnshownCredential[] } {
  const strip = ({ kind, id, createdAt }: UnshownRecordState): UnshownCredential => ({ kind, id, createdAt });
  return { unshown: found.filter((r) => r.exists && !r.used).map(strip), settled: found.filter((r) => !r.exists || r.used).map(strip) };
}

/** Start-up: the generated credentials earlier starts never showed; records that no longer matter are removed. */
export async function findUnshown(em: EntityManager): Promise<UnshownCredential[]> {
  const fork = em.fork();
  const rows = await unshownRecords(fork, UNSHOWN.token, UNSHOWN.password);
  const { unshown, settled } = settleRecords(rows.map((r) => ({
    kind: r.name === UNSHOWN.token ? 'token' : 'password', id: r.content.id, createdAt: r.content.createdAt, exists: r.exists, used: r.used,
  })));
  for (const c of settled) await forget(fork, c.kind, c.id);
  return unshown;
}

/** Who the recovery command acts as: audit events name the command. */
export const RECOVERY_PRINCIPAL: Principal = { ...systemPrincipal, name: 'admin:reset-password' };

/**
 * The recovery command (scripts/admin-reset-password.ts): sets the password of the user named by username or email
 * (one namespace: the name is at most one user's) exactly as an admin would, so its sessions and reset links end and
 * `user-updated` with `passwordChanged` is written; an unshown record of its generated password goes.
 */
export async function resetPasswordOf(em: EntityManager, login: string, password: string): Promise<void> {
  const fork = em.fork();
  const userId = await userIdByLoginName(fork, login);
  if (userId === undefined) throw new NotFoundError(`There is no user with the username or email ${JSON.stringify(login)}.`);
  await new UserService(fork, RECOVERY_PRINCIPAL, new AccessService(fork, RECOVERY_PRINCIPAL)).setPassword(userId, { password });
  await forget(em, 'password', userId);
}

/** The recovery command, as the README documents it. */
export const RESET_PASSWORD_COMMAND = 'npm run admin:reset-password';

/** What a start prints about the credentials it generated: their secrets, with how to use them. */
export function generatedBanner(created: GeneratedCredentials, port: number): string {
  let text = '';
  if (created.token) {
    const { secret } = created.token;
    text += `\nNo admin API token existed, so one was created. It is shown only this once:\n\n    ${secret}\n\nTry: curl -H "Authorization: ${secret}" http://localhost:${port}/api/admin/tags\n\n`;
  }
  if (created.password) {
    text += `No user existed, so user "admin" was created. Its password is shown only this once:\n\n    ${created.password.password}\n\nSign in to the web UI at http://localhost:${port}/ as admin with it (or from a script: curl -c cookies -H 'Content-Type: application/json' -d '{"username":"admin","password":"…"}' http://localhost:${port}/auth/simple/login).\n\n`;
  }
  return text;
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * What to do about generated credentials that were never shown. `embedded`: the recovery command needs the data
 * folder free, so the service is stopped first.
 */
export function unshownNotice(unshown: UnshownCredential[], { embedded, port }: { embedded: boolean; port: number }): string {
  let text = '';
  for (const c of unshown) {
    if (c.kind === 'password') {
      text += `\nThe password of user "admin" generated on ${when(c.createdAt)} was never shown (the process that created it stopped, or could not write its output, before printing it), and no one has logged in as "admin" since. To set a new password, ${embedded ? 'stop flagdeck, then run with the same DATA_DIR' : 'run with the same DATABASE_URL'}:\n\n    ${RESET_PASSWORD_COMMAND}\n\nIt prints the new password (or sets INIT_ADMIN_PASSWORD when that is set). This notice ends once "admin" logs in.\n`;
    } else {
      text += `\nThe admin API token (id ${c.id}) generated on ${when(c.createdAt)} was never shown, and it has not been used since. For an admin token you know, start flagdeck with INIT_ADMIN_API_TOKENS='*:*.<a secret of your choice>' (it is created at start), or log in as an admin and create one. Then delete the unknown one, which ends this notice:\n\n    curl -X DELETE -H "Authorization: <your token>" http://localhost:${port}/api/admin/api-tokens/${c.id}\n`;
    }
  }
  return text && `${text}\n`;
}
