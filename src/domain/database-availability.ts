import { isDatabaseUnreachable } from './database-errors';

/** How often the database is asked whether it is back while it is known to be away. */
export const AVAILABILITY_PROBE_MS = 1_000;

export type AvailabilityListener = (reachable: boolean) => void;

/**
 * What this instance knows of its database's reach (issue 42): reachable, or unreachable since an instant. It turns
 * unreachable when a caller notes an error that says so (isDatabaseUnreachable) or a probe (`select 1`, bounded) goes
 * unanswered, and reachable again when a probe answers or a caller notes a success. While it is away it probes every `probeMs`, so its return
 * is noticed without any traffic.
 *
 * The SDK doors read it to answer from their last state at once instead of waiting on a database known to be away;
 * the event listener drops its connection on the way down (a cut network leaves it hanging otherwise).
 */
export class DatabaseAvailability {
  private since: Date | undefined;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<boolean> | undefined;
  private suspected = false;
  private stopped = false;
  private readonly listeners = new Set<AvailabilityListener>();

  constructor(private readonly probe: () => Promise<boolean>, private readonly probeMs = AVAILABILITY_PROBE_MS) {}

  /** When the database was first found out of reach, or undefined while it is reachable. */
  get unreachableSince(): Date | undefined {
    return this.since;
  }

  get reachable(): boolean {
    return this.since === undefined;
  }

  /**
   * Known away, or in doubt: something waited on it longer than it should have, and a probe is finding out. SDK doors do
   * not wait on a database in doubt (so a cut network costs a request one wait, not one per step).
   */
  get doubtful(): boolean {
    return this.since !== undefined || this.suspected;
  }

  /** Something waited too long on the database: it is in doubt until a probe tells (check). */
  suspect(): void {
    if (this.suspected || this.stopped) return;
    this.suspected = true;
    void this.check().finally(() => { this.suspected = false; });
  }

  /** Whether `err` says the database is out of reach; if it does, the database is taken to be away from now. */
  noteError(err: unknown): boolean {
    if (!isDatabaseUnreachable(err)) return false;
    this.noteUnreachable();
    return true;
  }

  private noteUnreachable(): void {
    if (this.since !== undefined || this.stopped) return;
    this.since = new Date();
    this.timer = setInterval(() => { void this.check(); }, this.probeMs);
    this.timer.unref();
    this.emit(false);
  }

  /** The database answered. */
  noteReachable(): void {
    if (this.since === undefined) return;
    this.since = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    this.emit(true);
  }

  /** Calls `listener` on every change of reach; returns its removal. */
  onChange(listener: AvailabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks the database now (callers meanwhile share the question) and notes what it finds: a database that does not
   * answer within the probe's bound is taken to be away (or too busy to wait for: SDKs are then served their last
   * state, and it is asked again every `probeMs`).
   */
  check(): Promise<boolean> {
    this.probing ??= this.probe().catch(() => false).then((answered) => {
      if (answered) this.noteReachable();
      else this.noteUnreachable();
      return answered;
    }).finally(() => { this.probing = undefined; });
    return this.probing;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private emit(reachable: boolean): void {
    for (const listener of this.listeners) listener(reachable);
  }
}
