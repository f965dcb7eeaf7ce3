import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { InvalidOperationError, NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import { hashToken } from './api-token.service';
import { PAT_PREFIX } from './authenticator';
import type { Principal } from './principal';

/** A personal access token as listed: never its secret, which only the create response carries, once. */
export interface PersonalToken {
  id: number;
  description: string;
  expiresAt: string;
  createdAt: string;
  seenAt: string | null;
}

interface PatRow {
  id: number;
  description: string;
  expires_at: Date;
  created_at: Date;
  seen_at: Date | null;
}

const toToken = (r: PatRow): PersonalToken => ({
  id: r.id,
  description: r.description,
  expiresAt: new Date(r.expires_at).toISOString(),
  createdAt: new Date(r.created_at).toISOString(),
  seenAt: r.seen_at ? new Date(r.seen_at).toISOString() : null,
});

export const createSchema = z.object({
  description: z.string().trim().min(1).max(255),
  expiresAt: z.iso.datetime({ offset: true }),
}).strict();

/** Personal access tokens of the calling user (issue 9): they act with their user's permissions. */
export class PersonalTokenService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly onRevoke: () => void = () => {}) {}

  async list(): Promise<PersonalToken[]> {
    const userId = this.userId();
    const rows: PatRow[] = await this.em.execute('select id, description, expires_at, created_at, seen_at from personal_access_tokens where user_id = ? order by id', [userId]);
    return rows.map(toToken);
  }

  async create(input: unknown): Promise<PersonalToken & { secret: string }> {
    const data = parse(createSchema, input);
    const userId = this.userId();
    const expiresAt = new Date(data.expiresAt);
    if (expiresAt.getTime() <= Date.now()) throw ValidationError.single('expiresAt', 'The `expiresAt` property must be in the future.');
    const secret = `${PAT_PREFIX}${randomBytes(32).toString('hex')}`;
    return change(this.em, this.principal, async (tx, emit) => {
      const [row]: PatRow[] = await tx.execute(
        'insert into personal_access_tokens (user_id, secret_hash, description, expires_at) values (?, ?, ?, ?) returning id, description, expires_at, created_at, seen_at',
        [userId, hashToken(secret), data.description, expiresAt],
      );
      const token = toToken(row);
      emit({ type: 'pat-created', data: { id: token.id, description: token.description, expiresAt: token.expiresAt } });
      return { ...token, secret };
    });
  }

  async delete(id: string): Promise<void> {
    const userId = this.userId();
    const n = /^\d{1,9}$/.test(id) ? Number(id) : NaN;
    await change(this.em, this.principal, async (tx, emit) => {
      // Only the caller's own tokens: someone else's id is as unknown as a missing one.
      const [row]: PatRow[] = Number.isNaN(n) ? [] : await tx.execute(
        'delete from personal_access_tokens where id = ? and user_id = ? returning id, description, expires_at, created_at, seen_at', [n, userId]);
      if (!row) throw new NotFoundError(`Could not find a personal access token with id ${id}.`);
      const token = toToken(row);
      emit({ type: 'pat-deleted', preData: { id: token.id, description: token.description, expiresAt: token.expiresAt } });
    });
    this.onRevoke();
  }

  private userId(): number {
    if (this.principal.kind !== 'user' || this.principal.userId === null) {
      throw new InvalidOperationError('Personal access tokens belong to users: log in as a user (or use a personal access token) to manage them.');
    }
    return this.principal.userId;
  }
}
