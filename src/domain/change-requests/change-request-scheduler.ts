import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { warnUnlessUnreachable } from '../database-errors';
import type { Logger } from '../logger';
import { AccessService } from '../access/access.service';
import { userPrincipal } from '../access/authenticator';
import { SYSTEM_USER_ID, type Principal } from '../access/principal';
import { change } from '../change';
import { DomainError, NoAccessError } from '../errors';
import { iso } from '../dates';
import { applyChangeRequest } from './change-request-apply';
import { dueChangeRequests, type DueRow } from './change-request.read-model';
import { lockDueRequest, lockSchedulerUser, lockSchedulerToken, markApplied, markScheduleFailed } from './change-request.store';

/**
 * The name and id written on the scheduler's own events (success, failure): whoever scheduled the request, as
 * recorded then. It holds no rights: applying runs as `currentScheduler` finds the scheduler now.
 */
const schedulerOf = (row: DueRow): Principal => ({
  kind: 'system', name: row.scheduled_by, userId: row.scheduled_by_user_id, isAdmin: false, rootRoleId: null,
});

/**
 * Whoever scheduled the request, as they are now (inside the applying transaction): the user with their current root
 * role, held `for key share` so they are not deleted before the application commits, or the admin API token if it
 * still exists and has not expired. Anyone else (deleted, expired, or recorded by a version that kept only a name) is
 * refused with NoAccessError, and the request fails with that reason.
 */
async function currentScheduler(tx: EntityManager, row: DueRow, environment: string): Promise<Principal> {
  const refuse = (why: string) => new NoAccessError('APPLY_CHANGE_REQUEST', environment, `Change request ${row.id} was not applied: ${why}.`);
  const [kind, id] = (row.scheduled_by_actor ?? '').split(':');
  if (kind === 'user' && /^\d+$/.test(id)) {
    const u = await lockSchedulerUser(tx, Number(id));
    if (!u) throw refuse(`the user who scheduled it (${row.scheduled_by}) no longer exists`);
    return userPrincipal(u);
  }
  if (kind === 'token' && /^\d+$/.test(id)) {
    const t = await lockSchedulerToken(tx, Number(id));
    if (!t || t.type !== 'admin') throw refuse(`the API token that scheduled it (${row.scheduled_by}) was deleted or has expired`);
    return { kind: 'api-token', name: t.token_name, userId: SYSTEM_USER_ID, isAdmin: true, rootRoleId: null, tokenId: t.id, tokenType: 'admin', tokenProjects: ['*'], tokenEnvironment: '*' };
  }
  throw refuse(`who scheduled it (${row.scheduled_by}) was recorded by an earlier version by name only and cannot be verified; schedule it again`);
}

/** Most requests one round looks at; a round that finds this many goes on with the next ones at once. */
const BATCH = 20;

/**
 * Applies Scheduled change requests when their time comes (issue 12 part 7). Any number of instances may run one:
 *
 * - A round reads the due requests (pending, `scheduled_at <= now()`), then applies each in its own transaction
 *   that first takes the request's row `for update skip locked` and checks again that it is still due and pending.
 *   Of two instances looking at the same request, one gets the lock and applies it; the other skips it, and finds it
 *   Applied if it looks again. So a request is applied once.
 * - Applying is the same as `PUT …/state {state: Applied}` (every change through the services of direct edits, in
 *   one transaction) by whoever scheduled it, with their rights as they are when it comes due (a user who lost
 *   APPLY_CHANGE_REQUEST, or was deleted, or a deleted token fails it), plus change-request-scheduled-application-success.
 * - A request that cannot be applied (a conflict, a change the model now refuses) is rolled back whole, then marked
 *   `failed` with the reason and change-request-scheduled-application-failure, once: that update only matches a
 *   request still pending at the time it was found due. It stays Scheduled: scheduling it again (a new time) or
 *   applying it at once retries it; cancelling withdraws it.
 * - A database that cannot be reached leaves the request pending; the next round tries again.
 */
export class ChangeRequestScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly orm: MikroORM, private readonly options: { pollMs: number }, private readonly logger: Logger) {}

  start(): this {
    this.tick();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Applies every request due now; resolves to how many this instance applied (tests call it directly). */
  runDue(): Promise<number> {
    this.running ??= this.round().finally(() => { this.running = undefined; });
    return this.running;
  }

  private tick(): void {
    if (this.stopped) return;
    void this.runDue().catch((err) => warnUnlessUnreachable(this.logger, { err }, 'scheduled change requests could not be read')).finally(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => this.tick(), this.options.pollMs);
      this.timer.unref();
    });
  }

  private async round(): Promise<number> {
    let applied = 0;
    for (;;) {
      const em = this.orm.em.fork() as EntityManager;
      const due = await dueChangeRequests(em, BATCH);
      let skipped = 0;
      for (const row of due) {
        if (this.stopped) return applied;
        const outcome = await this.applyOne(row);
        if (outcome === 'applied') applied += 1;
        if (outcome === 'skipped') skipped += 1;
      }
      // Requests another instance is applying stay due until it commits: leave them to the next poll rather than
      // reading them again at once.
      if (due.length < BATCH || skipped > 0 || this.stopped) return applied;
    }
  }

  /** Applies one due request unless another instance has it (`skipped`); `failed` when it could not be applied. */
  private async applyOne(row: DueRow): Promise<'applied' | 'skipped' | 'failed'> {
    const principal = schedulerOf(row);
    try {
      return await change(this.orm.em.fork() as EntityManager, principal, async (tx, emit): Promise<'applied' | 'skipped'> => {
        const r = await lockDueRequest(tx, row.id);
        if (!r) return 'skipped';
        // The scheduler's rights now, checked as a direct apply checks them: a role taken away since scheduling, a
        // deleted user or token, fails the request instead of applying it.
        const scheduler = await currentScheduler(tx, row, r.environment);
        const access = new AccessService(tx, scheduler);
        if (!(await access.allows('APPLY_CHANGE_REQUEST', { project: r.project, environment: r.environment }))) {
          throw new NoAccessError('APPLY_CHANGE_REQUEST', r.environment,
            `Change request ${r.id} was not applied: ${scheduler.name}, who scheduled it, no longer holds the "APPLY_CHANGE_REQUEST" permission in the "${r.environment}" environment of project "${r.project}". Someone who holds it may apply it or schedule it again.`);
        }
        await applyChangeRequest(tx, scheduler, r, access);
        await markApplied(tx, r.id);
        const base = { project: r.project, environment: r.environment, data: { changeRequestId: r.id } };
        emit({ type: 'change-request-applied', ...base });
        emit({ type: 'change-request-scheduled-application-success', ...base, data: { changeRequestId: r.id, scheduledDate: iso(row.scheduled_at) } });
        return 'applied';
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await this.recordFailure(row, principal, err.message);
      return 'failed';
    }
  }

  private async recordFailure(row: DueRow, principal: Principal, reason: string): Promise<void> {
    await change(this.orm.em.fork() as EntityManager, principal, async (tx, emit) => {
      const r = await markScheduleFailed(tx, row.id, row.scheduled_at_text, reason.slice(0, 2000));
      if (!r) return;
      emit({
        type: 'change-request-scheduled-application-failure', project: r.project, environment: r.environment,
        data: { changeRequestId: r.id, scheduledDate: iso(row.scheduled_at), failureReason: reason },
      });
    });
    this.logger.info({ changeRequest: row.id, reason }, 'a scheduled change request could not be applied');
  }
}
