import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { InvalidOperationError, NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import { PAT_PREFIX } from './authenticator';
import { hashToken } from './password';
import { listPersonalTokens, toToken } from './personal-token.read-model';
import type { PersonalAccessToken, PersonalAccessTokenCreated } from './personal-token.shapes';
import { deletePersonalToken, insertPersonalToken } from './personal-token.store';
import type { Principal } from './principal';

export const createSchema = z.object({
  description: z.string().trim().min(1).max(255),
  expiresAt: z.iso.datetime({ offset: true }),
}).strict();

/** Personal access tokens of the calling user (issue 9): they act with their user's permissions. */
export class PersonalTokenService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly onRevoke: () => void = () => {}) {}

  async list(): Promise<PersonalAccessToken[]> {
    return listPersonalTokens(this.em, this.userId());
  }

  async create(input: unknown): Promise<PersonalAccessTokenCreated> {
    const data = parse(createSchema, input);
    const userId = this.userId();
    const expiresAt = new Date(data.expiresAt);
    if (expiresAt.getTime() <= Date.now()) throw ValidationError.single('expiresAt', 'The `expiresAt` property must be in the future.');
    const secret = `${PAT_PREFIX}${randomBytes(32).toString('hex')}`;
    return change(this.em, this.principal, async (tx, emit) => {
      const token = toToken(await insertPersonalToken(tx, { userId, secretHash: hashToken(secret), description: data.description, expiresAt }));
      emit({ type: 'pat-created', data: { id: token.id, description: token.description, expiresAt: token.expiresAt } });
      return { ...token, secret };
    });
  }

  async delete(id: string): Promise<void> {
    const userId = this.userId();
    const n = /^\d{1,9}$/.test(id) ? Number(id) : NaN;
    await change(this.em, this.principal, async (tx, emit) => {
      // Only the caller's own tokens: someone else's id is as unknown as a missing one.
      const row = Number.isNaN(n) ? undefined : await deletePersonalToken(tx, n, userId);
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
