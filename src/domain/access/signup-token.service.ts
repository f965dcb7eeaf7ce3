import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import { checkPasswordStrength, hashPassword } from './password';
import { ADMIN, ROLE_VIEWER } from './permissions';
import { SYSTEM_USER_ID, type Principal } from './principal';
import { findSignupToken, listSignupTokens, withUsers } from './signup-token.read-model';
import type { SignupToken } from './signup-token.shapes';
import { addSignupTokenUser, insertSignupToken, loadSignupToken, shareSignupToken, shareTokenRole, updateSignupToken } from './signup-token.store';
import { userEventData } from './user.read-model';
import type { User } from './user.shapes';
import { refuseTakenLoginNames, rootRoleId } from './user.service';
import { insertUser } from './user.store';

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
    return listSignupTokens(this.em, this.publicUrl);
  }

  async get(secret: string): Promise<SignupToken> {
    await this.access.check(ADMIN);
    const [token] = await withUsers(this.em, [await loadSignupToken(this.em, secret)], this.publicUrl);
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
      await insertSignupToken(tx, { secret, name: data.name, roleId, expiresAt, createdBy: this.principal.name });
      const [token] = await withUsers(tx, [await loadSignupToken(tx, secret)], this.publicUrl);
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
      const before = await loadSignupToken(tx, secret, 'update');
      // Unleash does not cap the expiry on update: an admin may extend a link or end it at once with a past date.
      await updateSignupToken(tx, before.secret, { expiresAt: data.expiresAt ?? null, enabled: data.enabled ?? null });
      const [token] = await withUsers(tx, [await loadSignupToken(tx, before.secret)], this.publicUrl);
      // Only what was sent, as Unleash's event does; the name stands in for the secret.
      emit({ type: 'public-signup-token-updated', data: { name: token.name, ...(data.enabled === undefined ? {} : { enabled: data.enabled }), ...(data.expiresAt === undefined ? {} : { expiresAt: token.expiresAt }) } });
      return token;
    });
  }

  /** `GET /invite/:secret/validate`: whether the link can be used now. */
  async validate(secret: string): Promise<void> {
    const row = await findSignupToken(this.em, secret);
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
      const row = await shareSignupToken(tx, secret);
      if (!row?.valid) throw invalidLink();
      await shareTokenRole(tx, row.role_id);
      await refuseTakenLoginNames(tx, { username: data.username, email: data.email });
      const user = await insertUser(tx, { name: data.name, username: data.username ?? null, email: data.email, passwordHash, rootRoleId: row.role_id });
      await addSignupTokenUser(tx, row.secret, user.id);
      emit({ type: 'user-created', data: userEventData(user) });
      emit({ type: 'public-signup-token-user-added', data: { name: row.name, userId: user.id } });
      return user;
    });
  }
}

function invalidLink(): ValidationError {
  return ValidationError.single('secret', 'This invite link cannot be used: it is unknown, disabled or expired. Ask an administrator for a new one.');
}
