import type { MikroORM } from '@mikro-orm/postgresql';
import { warnUnlessUnreachable } from '../database-errors';
import type { Logger } from '../logger';
import { pruneVersions } from './history.store';

/** How often the versions past keeping are pruned (and once shortly after start). */
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 60 * 1000;

/**
 * Keeps versions for HISTORY_RETENTION_DAYS (issue 43; 0 = forever): every hour, `history_prune()` (migration 0024)
 * deletes what is older than the cut, keeping per flag and segment the last version at or before it (an instant after
 * the cut still needs it), and moves the history horizon to the cut. Any number of instances may run it: a second
 * round finds nothing left to delete.
 */
export class HistoryRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly orm: MikroORM, private readonly retentionDays: number, private readonly logger: Logger) {}

  start(): this {
    if (this.retentionDays > 0) this.schedule(FIRST_AFTER_MS);
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Prunes what is older than the retention at `now` (nothing when kept forever); returns how many versions went. */
  async prune(now = new Date()): Promise<number> {
    if (this.retentionDays === 0) return 0;
    const cut = new Date(now.getTime() - this.retentionDays * 86_400_000);
    return pruneVersions(this.orm.em.fork(), cut);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.prune().then((gone) => {
        if (gone > 0) this.logger.info({ gone, retentionDays: this.retentionDays }, 'versions past their keeping time pruned');
        return gone;
      }, (err: unknown) => {
        warnUnlessUnreachable(this.logger, { err }, 'pruning versions failed; trying again next round');
        return 0;
      }).finally(() => this.schedule(EVERY_MS));
    }, ms);
    this.timer.unref();
  }
}
