import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NoAccessError, ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import { listApiTokens, toView } from './api-token.read-model';
import type { ApiToken, ApiTokenCreated } from './api-token.shapes';
import { apiTokenExists, createAdminToken, deleteApiToken, insertApiToken, loadApiToken, setApiTokenExpiry, shareEnvironment, shareProjects } from './api-token.store';
import { hashToken } from './password';
import { ADMIN } from './permissions';
import type { Principal } from './principal';

export function generateAdminToken(): string {
  return `*:*.${randomBytes(32).toString('hex')}`;
}

/**
 * Start-up: create each configured admin token (INIT_ADMIN_API_TOKENS) that is absent. A token generated because none
 * exists is made by `createGeneratedCredentials`, once the service can show it.
 */
export async function ensureAdminTokens(em: EntityManager, initTokens: string[]): Promise<void> {
  const fork = em.fork();
  for (const token of initTokens) {
    const digest = hashToken(token);
    if (!(await apiTokenExists(fork, digest))) createAdminToken(fork, digest);
  }
  await fork.flush();
}

/** What an event records of a token: never its secret. */
const eventData = (t: ApiToken) => ({ id: t.id, tokenName: t.tokenName, type: t.type, environment: t.environment, projects: t.projects, expiresAt: t.expiresAt });

const name = z.string().trim().min(1).max(200);
export const createSchema = z.object({
  tokenName: name.optional(),
  username: name.optional(),
  type: z.string().transform((t) => t.toLowerCase()).pipe(z.enum(['client', 'admin', 'frontend'])),
  environment: z.string().min(1).max(100).optional(),
  project: z.string().min(1).max(100).optional(),
  projects: z.array(z.string().min(1).max(100)).min(1).max(1000).optional(),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
}).strict();
export const updateSchema = z.object({ expiresAt: z.iso.datetime({ offset: true }) }).strict();

/** The permission a caller needs to create (`CREATE`), update, delete or read a token of `type`. */
function tokenPermission(action: 'CREATE' | 'UPDATE' | 'DELETE' | 'READ', type: string): string {
  if (type === 'client') return `${action}_CLIENT_API_TOKEN`;
  if (type === 'frontend') return `${action}_FRONTEND_API_TOKEN`;
  return ADMIN;
}

/**
 * API tokens (issue 9): admin tokens open the admin API; client and frontend tokens are scoped to projects (`*` or a
 * list) and one environment, and are refused on the admin API. Secrets have Unleash's format
 * `<project | * | []>:<environment | *>.<64 hex digits>` and are stored only as digests. A token is addressed by its
 * secret (as Unleash does) or by its id.
 */
export class ApiTokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
    private readonly onRevoke: () => void = () => {},
  ) {}

  /** The tokens the caller may read: admin tokens need ADMIN, client and frontend tokens their READ permission. */
  async list(): Promise<ApiToken[]> {
    const tokens = await listApiTokens(this.em);
    const readable = new Map<string, boolean>();
    for (const type of ['admin', 'client', 'frontend']) readable.set(type, await this.access.allows(tokenPermission('READ', type)));
    return tokens.filter((t) => readable.get(t.type));
  }

  async create(input: unknown): Promise<ApiTokenCreated> {
    const data = parse(createSchema, input);
    const tokenName = data.tokenName ?? data.username;
    if (!tokenName) throw ValidationError.single('tokenName', 'The `tokenName` property is required. It was not present on the data you sent.');
    if (data.project !== undefined && data.projects !== undefined) throw ValidationError.single('projects', 'Send `project` or `projects`, not both.');
    const projects = [...new Set(data.projects ?? [data.project ?? '*'])];
    if (projects.length > 1 && projects.includes('*')) throw ValidationError.single('projects', 'A token for every project (`*`) names no other project.');
    const expiresAt = data.expiresAt ? new Date(data.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw ValidationError.single('expiresAt', 'The `expiresAt` property must be in the future.');
    let environment = data.environment ?? (data.type === 'admin' ? '*' : 'development');
    if (data.type === 'admin') {
      if (environment !== '*' || projects[0] !== '*') throw ValidationError.single('environment', 'An admin token is for every project and environment: `environment` and `projects` must be `*` or absent.');
      environment = '*';
    } else if (environment === '*') {
      throw ValidationError.single('environment', `A ${data.type} token is for one environment: name it in \`environment\`.`);
    }
    await this.access.check(tokenPermission('CREATE', data.type));
    const secret = `${projects.length > 1 ? '[]' : projects[0]}:${environment}.${randomBytes(32).toString('hex')}`;
    return change(this.em, this.principal, async (tx, emit) => {
      if (environment !== '*') {
        if (!(await shareEnvironment(tx, environment))) throw ValidationError.single('environment', `Environment ${environment} does not exist.`);
      }
      if (projects[0] !== '*') {
        const known = await shareProjects(tx, projects);
        const missing = projects.findIndex((p) => !known.has(p));
        if (missing >= 0) throw ValidationError.single(data.projects ? `projects/${missing}` : 'project', `Project ${projects[missing]} does not exist.`);
      }
      const row = await insertApiToken(tx, {
        secretHash: hashToken(secret), tokenName, type: data.type, projects, environment, expiresAt, createdBy: this.principal.name, createdByUserId: this.principal.userId,
      });
      const view = toView(row);
      emit({ type: 'api-token-created', data: eventData(view), environment: environment === '*' ? null : environment, project: projects.length === 1 && projects[0] !== '*' ? projects[0] : null });
      return { ...view, secret };
    });
  }

  async update(ref: string, input: unknown): Promise<ApiToken> {
    const { expiresAt } = parse(updateSchema, input);
    await this.access.granted(); // read before the transaction: its checks then run on what is loaded
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadApiToken(tx, ref, 'update');
      await this.access.check(tokenPermission('UPDATE', row.type));
      const after = toView(await setApiTokenExpiry(tx, row.id, new Date(expiresAt)));
      emit({ type: 'api-token-updated', data: eventData(after), preData: eventData(toView(row)) });
      this.onRevoke();
      return after;
    });
  }

  async delete(ref: string): Promise<void> {
    await this.access.granted();
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadApiToken(tx, ref, 'update');
      await this.access.check(tokenPermission('DELETE', row.type));
      await deleteApiToken(tx, row.id);
      emit({ type: 'api-token-deleted', preData: eventData(toView(row)) });
    });
    this.onRevoke();
  }
}

/** Client and frontend tokens never open the admin API (Unleash answers 403 too). */
export function refuseNonAdminToken(principal: Principal): NoAccessError | undefined {
  if (principal.kind === 'api-token' && principal.tokenType !== 'admin') {
    return new NoAccessError(ADMIN, undefined, `A ${principal.tokenType} token cannot use the admin API: use an admin token, a personal access token or a session.`);
  }
  return undefined;
}
