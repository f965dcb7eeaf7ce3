import type { Scope } from './rbac';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { iso } from '../dates';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { parse, sameJson } from '../validation';
import type { AccessService } from './access.service';
import { checkPasswordStrength, hashPassword } from './password';
import { expireResetTokens } from './password-reset.store';
import { inviteUrl, issueResetToken, resetPasswordUrl } from './password-reset.service';
import { ADMIN, ROLE_ADMIN, ROLE_VIEWER } from './permissions';
import { SYSTEM_USER_ID, type Principal } from './principal';
import { shareRoleRef } from './role.store';
import { endOtherSessions, endSessions } from './session.store';
import { listUsers, toUser, userEventData } from './user.read-model';
import type { User, UserProfile } from './user.shapes';
import {
  anyUser, deleteUser, findUser, insertFirstAdmin, insertUser, loadUser, setPasswordHash, takenLoginNames, updateUser, userIdByLoginName,
} from './user.store';

const text = (max: number) => z.string().trim().max(max);
const rootRoleRef = z.union([z.number().int().min(1).max(2_147_483_647), z.string().min(1).max(100)]);
export const createUserSchema = z.object({
  username: text(100).min(1).nullable().optional(),
  email: text(254).pipe(z.email()).nullable().optional(),
  name: text(255).nullable().optional(),
  password: z.string().max(1000).optional(),
  rootRole: rootRoleRef,
  sendEmail: z.boolean().optional(),
}).strict();
export const updateUserSchema = z.object({
  email: text(254).pipe(z.email()).nullable().optional(),
  name: text(255).nullable().optional(),
  rootRole: rootRoleRef.optional(),
}).strict();
export const passwordSchema = z.object({ password: z.string().max(1000) }).strict();
export const ownPasswordSchema = z.object({ password: z.string().max(1000), confirmPassword: z.string().max(1000) }).strict();
/** Unleash: the user is named by username or email (`id`), whatever its case. */
export const resetLinkSchema = z.object({ id: z.string().trim().min(1).max(254) }).strict();

export type CreateUserInput = z.input<typeof createUserSchema>;
export type UpdateUserInput = z.input<typeof updateUserSchema>;

/** Users and their root roles (issue 9). Managing users needs ADMIN, as in Unleash. */
export class UserService {
  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
    private readonly onRevoke: () => void = () => {},
    /** The service's public address, without a trailing slash: the base of the links handed out. */
    private readonly publicUrl: string = 'http://localhost:4242',
  ) {}

  /** The permission names the caller holds in a project and environment (GraphQL `me { allowed }`; AccessService.allowedIn). */
  allowedIn(scope: Scope): Promise<string[]> {
    return this.access.allowedIn(scope);
  }

  /** GET /api/admin/user: the caller and every permission it holds, with where it holds it. */
  async me(): Promise<UserProfile> {
    const grants = await this.access.granted();
    const permissions = grants.map((g) => ({ permission: g.permission, ...(g.project ? { project: g.project } : {}), ...(g.environment ? { environment: g.environment } : {}) }));
    let user: User;
    if (this.principal.kind === 'user' && this.principal.userId !== null) {
      const row = await findUser(this.em, this.principal.userId);
      if (!row) throw new NotFoundError('Your user no longer exists.');
      user = toUser(row);
    } else {
      const id = this.principal.userId ?? SYSTEM_USER_ID;
      user = {
        ...toUser({ id, name: this.principal.name, username: this.principal.name, email: null, image_url: null, login_attempts: 0, email_sent: false, account_type: 'User', root_role_id: this.principal.isAdmin ? ROLE_ADMIN : ROLE_VIEWER, seen_at: null, created_at: iso(0) }),
        isAPI: true,
      };
    }
    return { user, feedback: [], splash: {}, permissions };
  }

  async list(): Promise<User[]> {
    await this.access.check(ADMIN);
    return listUsers(this.em);
  }

  async get(id: string | number): Promise<User> {
    await this.access.check(ADMIN);
    return toUser(await loadUser(this.em, id));
  }

  async create(input: CreateUserInput): Promise<User> {
    const data = parse(createUserSchema, input);
    if (!data.username && !data.email) throw ValidationError.single('username', 'A user needs a `username` or an `email`.');
    if (data.password !== undefined) checkPasswordStrength(data.password);
    await this.access.check(ADMIN);
    const passwordHash = data.password === undefined ? null : await hashPassword(data.password);
    return change(this.em, this.principal, async (tx, emit) => {
      const roleId = await rootRoleId(tx, data.rootRole, 'rootRole');
      await refuseTakenLoginNames(tx, { username: data.username, email: data.email });
      const user = await insertUser(tx, { name: data.name ?? null, username: data.username ?? null, email: data.email ?? null, passwordHash, rootRoleId: roleId });
      emit({ type: 'user-created', data: userEventData(user) });
      // As Unleash does when it sends no email (this service sends none): the answer carries an invite link the admin
      // passes on, with which the user sets their password. It is single-use and lasts 24 hours; setting the password
      // any other way ends it.
      user.inviteLink = inviteUrl(this.publicUrl, await issueResetToken(tx, user.id, this.principal.name));
      return user;
    });
  }

  /**
   * A password reset link for the user named by username or email (Unleash: POST /api/admin/user-admin/reset-password).
   * The user's older unused links expire. No event: nothing about the user changes until the link is used.
   */
  async createResetLink(input: unknown): Promise<{ resetPasswordUrl: string }> {
    const { id } = parse(resetLinkSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx) => {
      // The name is one user's username or email, never two users' (login-names.ts).
      const userId = await userIdByLoginName(tx, id);
      if (userId === undefined) throw new NotFoundError(`Could not find a user with the username or email ${JSON.stringify(id)}.`);
      return { resetPasswordUrl: resetPasswordUrl(this.publicUrl, await issueResetToken(tx, userId, this.principal.name)) };
    });
  }

  async update(id: string | number, input: UpdateUserInput): Promise<User> {
    const data = parse(updateUserSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadUser(tx, id, 'update');
      const before = toUser(row);
      const roleId = data.rootRole === undefined ? row.root_role_id : await rootRoleId(tx, data.rootRole, 'rootRole');
      const email = data.email === undefined ? row.email : data.email;
      if (!email && !row.username) throw ValidationError.single('email', 'A user without a username keeps an email.');
      if (email && email.toLowerCase() !== (row.email ?? '').toLowerCase()) await refuseTakenLoginNames(tx, { email }, row.id);
      const updated = await updateUser(tx, row.id, { name: data.name === undefined ? row.name : data.name, email, rootRoleId: roleId });
      const after = toUser(updated);
      if (!sameJson(userEventData(before), userEventData(after))) emit({ type: 'user-updated', data: userEventData(after), preData: userEventData(before) });
      return after;
    });
  }

  async delete(id: string | number): Promise<void> {
    await this.access.check(ADMIN);
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadUser(tx, id, 'update');
      if (row.id === this.principal.userId) throw new InvalidOperationError('You cannot delete yourself.');
      await deleteUser(tx, row.id);
      emit({ type: 'user-deleted', preData: userEventData(toUser(row)) });
    });
    this.onRevoke();
  }

  /** An admin sets a user's password (Unleash: POST /api/admin/user-admin/:id/change-password). */
  async setPassword(id: string | number, input: unknown): Promise<void> {
    const { password } = parse(passwordSchema, input);
    checkPasswordStrength(password);
    await this.access.check(ADMIN);
    const hash = await hashPassword(password);
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadUser(tx, id, 'update');
      await setPasswordHash(tx, row.id, hash);
      // Every session of the user ends: whoever knew the old password is logged out.
      await endSessions(tx, row.id);
      // Reset and invite links still out would let whoever holds one replace the password just set.
      await expireResetTokens(tx, row.id);
      emit({ type: 'user-updated', data: { ...userEventData(toUser(row)), passwordChanged: true }, preData: userEventData(toUser(row)) });
    });
    this.onRevoke();
  }

  /** The caller changes their own password (POST /api/admin/user/change-password); other sessions end. */
  async changeOwnPassword(input: unknown): Promise<void> {
    const { password, confirmPassword } = parse(ownPasswordSchema, input);
    if (this.principal.kind !== 'user' || this.principal.userId === null) throw new InvalidOperationError('Only a user has a password; an API token does not.');
    if (password !== confirmPassword) throw ValidationError.single('confirmPassword', 'The `password` and `confirmPassword` properties must be equal.');
    checkPasswordStrength(password);
    const hash = await hashPassword(password);
    const userId = this.principal.userId;
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadUser(tx, userId, 'update');
      await setPasswordHash(tx, row.id, hash);
      // The session the change was made in (if any) stays; every other session of the user ends.
      await endOtherSessions(tx, row.id, this.principal.sessionHash ?? '');
      await expireResetTokens(tx, row.id);
      emit({ type: 'user-updated', data: { ...userEventData(toUser(row)), passwordChanged: true }, preData: userEventData(toUser(row)) });
    });
    this.onRevoke();
  }
}

/**
 * Refuses (409 NameExistsError naming the property) a username or e-mail that is already any other user's username
 * or e-mail (they share one namespace: user.store.ts). The trigger on `users` enforces the same under concurrent
 * writes; this check gives the words first.
 */
export async function refuseTakenLoginNames(tx: EntityManager, names: { username?: string | null; email?: string | null }, exceptUserId?: number): Promise<void> {
  const wanted = (['username', 'email'] as const).flatMap((property) => {
    const value = names[property];
    return value ? [{ property, value }] : [];
  });
  if (wanted.length === 0) return;
  const taken = await takenLoginNames(tx, wanted.map((w) => w.value.toLowerCase()), exceptUserId ?? 0);
  const clash = wanted.find((w) => taken.has(w.value.toLowerCase()));
  if (clash) {
    const message = `The ${clash.property} ${clash.value} is already the username or email of another user.`;
    throw new NameExistsError(message, [{ path: clash.property, message }]);
  }
}

/** A root role given by id or name (D14), held until commit; a project role, or none, is a 400 naming `path`. */
export async function rootRoleId(em: EntityManager, ref: number | string, path: string): Promise<number> {
  const role = await shareRoleRef(em, ref);
  if (!role || (role.type !== 'root' && role.type !== 'root-custom')) {
    throw ValidationError.single(path, `The \`${path}\` property must name a root role (Admin, Editor, Viewer or a custom root role) by id or name. You sent ${JSON.stringify(ref)}.`);
  }
  return role.id;
}

/**
 * Start-up with INIT_ADMIN_PASSWORD: a database without users gets user `admin` with the Admin root role and that
 * password. Without it, `createGeneratedCredentials` makes the user with a generated password, once the service can
 * show it. Safe to run from several instances at once (the insert is conditional on the table being empty).
 */
export async function ensureAdminUser(em: EntityManager, password: string): Promise<void> {
  const fork = em.fork();
  if (await anyUser(fork)) return;
  await insertFirstAdmin(fork, await hashPassword(password));
}

/**
 * A password of 25 characters, 20 of them random (120 bits), that passes the strength rule. About one draw in 200 puts
 * a character three times in a row, which the rule refuses: that draw is replaced. 64 draws all failing has a
 * probability below 10^-140; the error is there so the loop has a bound.
 */
export function generatePassword(randomBase64Url: () => string = () => randomBytes(15).toString('base64url')): string {
  for (let attempt = 0; attempt < 64; attempt++) {
    const candidate = `Fd-${randomBase64Url()}9a`;
    try {
      checkPasswordStrength(candidate);
      return candidate;
    } catch {
      // a character three times in a row: draw again
    }
  }
  throw new Error('could not generate a password that passes the strength rule');
}
