import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import { refuseTakenLoginNames } from './login-names';
import { checkPasswordStrength, hashPassword } from './password';
import { ADMIN, ROLE_VIEWER } from './permissions';
import { SYSTEM_USER_ID, type Principal } from './principal';
import { insertUser, rootRoleId, userEventData, USER_COLUMNS_OF_U, toUser, type User, type UserRow } from './user.service';

/** A public signup token as both doors return it (spec: Public signup token). */
export interface SignupToken {
  secret: string;
  url: string;
  name: string;
  /** D4: false whenever the token has expired, whatever is stored. */
  enabled: boolean;
  expiresAt: string;
  createdAt: string;
  createdBy: string | null;
  users: User[];
  role: { id: number; name: string; type: string; description: string | null };
}

interface TokenRow {
  secret: string;
  name: string;
  enabled: boolean;
  expires_at: Date;
  created_at: Date;
  created_by: string | null;
  role_id: number;
  role_name: string;
  role_type: string;
  role_description: string | null;
  /** Whether the token is usable now, as the database's clock says. */
  valid: boolean;
}

const TOKEN_SELECT = `select t.secret, t.name, t.enabled, t.expires_at, t.created_at, t.created_by, t.role_id,
  r.name as role_name, r.type as role_type, r.description as role_description,
  (t.enabled and t.expires_at > now()) as valid
  from public_signup_tokens t join roles r on r.id = t.role_id`;

/** Creation caps the expiry at one month ahead, as Unleash does. */
const MAX_LIFETIME_MONTHS = 1;
const dateTime = z.iso.datetime({ offset: true });
export const createSchema = z.object({
  name: z.string().trim().min(1).max(255),
  expiresAt: dateTime,
  role: z.union([z.number().int().min(1).max(2_147_483_647), z.string().min(1).max(100)]).optional(),
}).strict();
export const updateSchema = z.object({ expiresAt: dateTime.optional(), enabled: z.boolean().optional() }).strict();
export const signupSchema = z.object({
  name: z.string().trim().min(1).max(255),
  email: z.string().trim().max(254).pipe(z.email()),
  username: z.string().trim().min(1).max(100).optional(),
  password: z.string().max(1000),
}).strict();

export type CreateSignupTokenInput = z.input<typeof createSchema>;
export type UpdateSignupTokenInput = z.input<typeof updateSchema>;

/** What audit events record of a token: never its secret (anyone holding it can sign up), so events name it. */
const eventData = (t: SignupToken) => ({ name: t.name, enabled: t.enabled, expiresAt: t.expiresAt, role: t.role.name, createdBy: t.createdBy });

/** One month after `from`, on the same day of the month where that day exists (31 January gives the last of February). */
function oneMonthAfter(from: Date): Date {
  const to = new Date(from);
  const day = to.getUTCDate();
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + MAX_LIFETIME_MONTHS);
  const last = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(day, last));
  return to;
}

/**
 * Public signup tokens (issue 10, spec endpoint 7): invite links an admin creates and shares; whoever holds one signs
 * up (`/invite/:secret/signup`) with the token's root role while it is enabled and not expired. Managing tokens needs
 * ADMIN, as in Unleash; validating and signing up need nothing but the secret.
 */
export class SignupTokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
    private readonly publicUrl: string,
  ) {}

  async list(): Promise<SignupToken[]> {
    await this.access.check(ADMIN);
    const rows: TokenRow[] = await this.em.execute(`${TOKEN_SELECT} order by t.created_at, t.secret`);
    return this.withUsers(this.em, rows);
  }

  async get(secret: string): Promise<SignupToken> {
    await this.access.check(ADMIN);
    const [token] = await this.withUsers(this.em, [await this.load(this.em, secret)]);
    return token;
  }

  async create(input: unknown): Promise<SignupToken> {
    const data = parse(createSchema, input);
    await this.access.check(ADMIN);
    const now = new Date();
    const requested = new Date(data.expiresAt);
    if (requested.getTime() <= now.getTime()) throw ValidationError.single('expiresAt', 'The `expiresAt` property must be in the future.');
    const cap = oneMonthAfter(now);
    const expiresAt = requested > cap ? cap : requested;
    const secret = randomBytes(16).toString('hex');
    return change(this.em, this.principal, async (tx, emit) => {
      const roleId = data.role === undefined ? ROLE_VIEWER : await rootRoleId(tx, data.role, 'role');
      await tx.execute(
        'insert into public_signup_tokens (secret, name, role_id, expires_at, created_by) values (?, ?, ?, ?, ?)',
        [secret, data.name, roleId, expiresAt, this.principal.name],
      );
      const [token] = await this.withUsers(tx, [await this.load(tx, secret)]);
      emit({ type: 'public-signup-token-created', data: eventData(token) });
      return token;
    });
  }

  async update(secret: string, input: unknown): Promise<SignupToken> {
    const data = parse(updateSchema, input);
    if (data.expiresAt === undefined && data.enabled === undefined) {
      throw ValidationError.single('', 'Send `expiresAt`, `enabled` or both: the request body had neither.');
    }
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const before = await this.load(tx, secret, true);
      // Unleash does not cap the expiry on update: an admin may extend a link or end it at once with a past date.
      await tx.execute('update public_signup_tokens set expires_at = coalesce(?::timestamptz, expires_at), enabled = coalesce(?::boolean, enabled) where secret = ?',
        [data.expiresAt ?? null, data.enabled ?? null, before.secret]);
      const [token] = await this.withUsers(tx, [await this.load(tx, before.secret)]);
      // Only what was sent, as Unleash's event does; the name stands in for the secret.
      emit({ type: 'public-signup-token-updated', data: { name: token.name, ...(data.enabled === undefined ? {} : { enabled: data.enabled }), ...(data.expiresAt === undefined ? {} : { expiresAt: token.expiresAt }) } });
      return token;
    });
  }

  /** `GET /invite/:secret/validate`: whether the link can be used now. */
  async validate(secret: string): Promise<void> {
    const [row]: TokenRow[] = await this.em.execute(`${TOKEN_SELECT} where t.secret = ?`, [secret]);
    if (!row?.valid) throw invalidLink();
  }

  /** `POST /invite/:secret/signup`: a new user with the token's role, listed among the token's users. */
  async signup(secret: string, input: unknown): Promise<User> {
    const data = parse(signupSchema, input);
    checkPasswordStrength(data.password);
    // Refuse a dead link before paying for the password hash.
    await this.validate(secret);
    const passwordHash = await hashPassword(data.password);
    const actor: Principal = { kind: 'system', name: data.username ?? data.email, userId: SYSTEM_USER_ID, isAdmin: false, rootRoleId: null };
    return change(this.em, actor, async (tx, emit) => {
      // Held until commit: an admin disabling the link (or deleting its role) waits, and this signup sees the outcome.
      const [row]: TokenRow[] = await tx.execute(`${TOKEN_SELECT} where t.secret = ? for share of t`, [secret]);
      if (!row?.valid) throw invalidLink();
      await tx.execute('select id from roles where id = ? for key share', [row.role_id]);
      await refuseTakenLoginNames(tx, { username: data.username, email: data.email });
      const user = await insertUser(tx, { name: data.name, username: data.username ?? null, email: data.email, passwordHash, rootRoleId: row.role_id });
      await tx.execute('insert into public_signup_token_users (secret, user_id) values (?, ?)', [row.secret, user.id]);
      emit({ type: 'user-created', data: userEventData(user) });
      emit({ type: 'public-signup-token-user-added', data: { name: row.name, userId: user.id } });
      return user;
    });
  }

  /** The token row, or 404; `lock` holds it for update. A secret is hex (Unleash's are 32 characters). */
  private async load(em: EntityManager, secret: string, lock = false): Promise<TokenRow> {
    const [row]: TokenRow[] = secret.length > 200 ? [] : await em.execute(`${TOKEN_SELECT} where t.secret = ?${lock ? ' for update of t' : ''}`, [secret]);
    if (!row) throw new NotFoundError('Could not find public signup token.');
    return row;
  }

  /** Tokens with the users who signed up with them: one query for all of them. */
  private async withUsers(em: EntityManager, rows: TokenRow[]): Promise<SignupToken[]> {
    const users = new Map<string, User[]>();
    if (rows.length > 0) {
      const found: Array<UserRow & { secret: string }> = await em.execute(
        `select tu.secret, ${USER_COLUMNS_OF_U} from public_signup_token_users tu join users u on u.id = tu.user_id
         where tu.secret in (?) order by tu.created_at, u.id`, [rows.map((r) => r.secret)]);
      for (const f of found) {
        const list = users.get(f.secret) ?? [];
        list.push(toUser(f));
        users.set(f.secret, list);
      }
    }
    return rows.map((r) => ({
      secret: r.secret,
      url: `${this.publicUrl}/new-user?invite=${encodeURIComponent(r.secret)}`,
      name: r.name,
      enabled: r.valid,
      expiresAt: new Date(r.expires_at).toISOString(),
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.created_by,
      users: users.get(r.secret) ?? [],
      role: { id: r.role_id, name: r.role_name, type: r.role_type, description: r.role_description },
    }));
  }
}

function invalidLink(): ValidationError {
  return ValidationError.single('secret', 'This invite link cannot be used: it is unknown, disabled or expired. Ask an administrator for a new one.');
}
