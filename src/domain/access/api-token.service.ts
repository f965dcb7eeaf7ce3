import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NoAccessError, NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import { ApiTokenSchema } from './api-token.entity';
import { ADMIN } from './permissions';
import type { Principal } from './principal';

/** Tokens are stored as SHA-256 digests: they carry 32+ random bytes, so a fast digest is enough, and a leaked table reveals no token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

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
    if (!(await fork.findOne(ApiTokenSchema, { secretHash: digest }))) {
      fork.create(ApiTokenSchema, { secretHash: digest, tokenName: 'admin', type: 'admin', projects: ['*'], environment: '*' });
    }
  }
  await fork.flush();
}

export type ApiTokenType = 'client' | 'admin' | 'frontend';

/** An API token as listed (spec-shaped, as Unleash's apiTokenSchema): `secret` only in the create response, once. */
export interface ApiTokenView {
  id: number;
  secret?: string;
  tokenName: string;
  username: string;
  type: ApiTokenType;
  environment: string;
  project: string;
  projects: string[];
  expiresAt: string | null;
  createdAt: string;
  seenAt: string | null;
  alias: null;
}

interface ApiTokenRow {
  id: number;
  token_name: string;
  type: string;
  projects: string[];
  environment: string;
  expires_at: Date | null;
  created_at: Date;
  seen_at: Date | null;
}

const TOKEN_COLUMNS = 'id, token_name, type, projects, environment, expires_at, created_at, seen_at';
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toView(r: ApiTokenRow): ApiTokenView {
  const projects = r.projects.length ? r.projects : ['*'];
  return {
    id: r.id, tokenName: r.token_name, username: r.token_name, type: r.type as ApiTokenType, environment: r.environment,
    project: projects.length === 1 ? projects[0] : '[]', projects, expiresAt: iso(r.expires_at), createdAt: new Date(r.created_at).toISOString(),
    seenAt: iso(r.seen_at), alias: null,
  };
}

/** What an event records of a token: never its secret. */
const eventData = (t: ApiTokenView) => ({ id: t.id, tokenName: t.tokenName, type: t.type, environment: t.environment, projects: t.projects, expiresAt: t.expiresAt });

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
  async list(): Promise<ApiTokenView[]> {
    const rows: ApiTokenRow[] = await this.em.execute(`select ${TOKEN_COLUMNS} from api_tokens order by id`);
    const readable = new Map<string, boolean>();
    for (const type of ['admin', 'client', 'frontend']) readable.set(type, await this.access.allows(tokenPermission('READ', type)));
    return rows.filter((r) => readable.get(r.type)).map(toView);
  }

  async create(input: unknown): Promise<ApiTokenView & { secret: string }> {
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
        const env: unknown[] = await tx.execute('select 1 from environments where name = ? for key share', [environment]);
        if (env.length === 0) throw ValidationError.single('environment', `Environment ${environment} does not exist.`);
      }
      if (projects[0] !== '*') {
        const found: Array<{ id: string }> = await tx.execute('select id from projects where id in (?) for key share', [projects]);
        const known = new Set(found.map((f) => f.id));
        const missing = projects.findIndex((p) => !known.has(p));
        if (missing >= 0) throw ValidationError.single(data.projects ? `projects/${missing}` : 'project', `Project ${projects[missing]} does not exist.`);
      }
      const [row]: ApiTokenRow[] = await tx.execute(
        `insert into api_tokens (secret_hash, token_name, type, projects, environment, expires_at, created_by, created_by_user_id)
         values (?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?) returning ${TOKEN_COLUMNS}`,
        [hashToken(secret), tokenName, data.type, JSON.stringify(projects), environment, expiresAt, this.principal.name, this.principal.userId],
      );
      const view = toView(row);
      emit({ type: 'api-token-created', data: eventData(view), environment: environment === '*' ? null : environment, project: projects.length === 1 && projects[0] !== '*' ? projects[0] : null });
      return { ...view, secret };
    });
  }

  async update(ref: string, input: unknown): Promise<ApiTokenView> {
    const { expiresAt } = parse(updateSchema, input);
    await this.access.granted(); // read before the transaction: its checks then run on what is loaded
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, ref);
      await this.access.check(tokenPermission('UPDATE', row.type));
      const [updated]: ApiTokenRow[] = await tx.execute(`update api_tokens set expires_at = ? where id = ? returning ${TOKEN_COLUMNS}`, [new Date(expiresAt), row.id]);
      const after = toView(updated);
      emit({ type: 'api-token-updated', data: eventData(after), preData: eventData(toView(row)) });
      this.onRevoke();
      return after;
    });
  }

  async delete(ref: string): Promise<void> {
    await this.access.granted();
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, ref);
      await this.access.check(tokenPermission('DELETE', row.type));
      await tx.execute('delete from api_tokens where id = ?', [row.id]);
      emit({ type: 'api-token-deleted', preData: eventData(toView(row)) });
    });
    this.onRevoke();
  }

  /** The token addressed by its secret or id, locked; unknown → 404. */
  private async load(tx: EntityManager, ref: string): Promise<ApiTokenRow> {
    const [row]: ApiTokenRow[] = /^\d{1,9}$/.test(ref)
      ? await tx.execute(`select ${TOKEN_COLUMNS} from api_tokens where id = ? for update`, [Number(ref)])
      : ref.length <= 512 ? await tx.execute(`select ${TOKEN_COLUMNS} from api_tokens where secret_hash = ? for update`, [hashToken(ref)]) : [];
    if (!row) throw new NotFoundError('Could not find an API token with that secret or id.');
    return row;
  }
}

/** Client and frontend tokens never open the admin API (Unleash answers 403 too). */
export function refuseNonAdminToken(principal: Principal): NoAccessError | undefined {
  if (principal.kind === 'api-token' && principal.tokenType !== 'admin') {
    return new NoAccessError(ADMIN, undefined, `A ${principal.tokenType} token cannot use the admin API: use an admin token, a personal access token or a session.`);
  }
  return undefined;
}
