import { isDatabaseUnreachable } from '../database-errors';
import type { Logger } from '../logger';

/** Most SDK registrations held while the database is away (one per environment, application and instance). */
export const MAX_HELD_REGISTRATIONS = 10_000;
/** How often held registrations are tried again. */
export const REGISTRATION_RETRY_MS = 5_000;

/**
 * SDK registrations (`POST /api/client/register`) that came while the database was away (issue 42): held in memory,
 * the latest per instance, at most `max`, and written once the database answers again (every `retryMs`, and at once
 * when it is found back). A registration that fails for another reason is dropped and logged: its input was valid, so
 * that is ours to look at, not the SDK's. What is still held at shutdown is lost (logged).
 */
export class RegistrationBacklog {
  private readonly held = new Map<string, () => Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly logger: Logger, private readonly retryMs = REGISTRATION_RETRY_MS, private readonly max = MAX_HELD_REGISTRATIONS) {}

  get size(): number {
    return this.held.size;
  }

  /** Holds `write` under `key` (replacing what that key held); false when the backlog is full. */
  keep(key: string, write: () => Promise<void>): boolean {
    if (!this.held.has(key) && this.held.size >= this.max) return false;
    this.held.delete(key);
    this.held.set(key, write);
    if (!this.timer) {
      this.timer = setInterval(() => { void this.flush(); }, this.retryMs);
      this.timer.unref();
    }
    return true;
  }

  /** Writes what is held, in arrival order, until the database refuses again (one flush at a time). */
  flush(): Promise<void> {
    this.running ??= this.writeHeld().finally(() => { this.running = undefined; });
    return this.running;
  }

  private async writeHeld(): Promise<void> {
    for (const [key, write] of [...this.held]) {
      try {
        await write();
      } catch (err) {
        if (isDatabaseUnreachable(err)) return;
        this.logger.warn({ err }, 'a held SDK registration could not be written; it is dropped');
      }
      if (this.held.get(key) === write) this.held.delete(key);
    }
    if (this.held.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Tries once more, then stops (the app is closing). */
  async close(): Promise<void> {
    await this.flush();
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.held.size > 0) this.logger.error({ registrations: this.held.size }, 'SDK registrations could not be written before shutdown and are lost');
  }
}
