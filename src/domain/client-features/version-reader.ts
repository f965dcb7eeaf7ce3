import type { ModelVersionSignal } from '../events/event-hub';

/** How long a read of `model_version` is trusted while the counter is watched, however quiet the channel stays. */
export const WATCHED_VERSION_MAX_AGE_MS = 1_000;

/**
 * Reads `model_version` with at most one read in flight: requests that ask while one is under way share the next read,
 * issued as soon as that one ends. Each request thus gets a value read after it asked, so it sees every change committed
 * before it asked (joining the read already under way could miss one), and under load the counter costs one statement
 * per database round trip, however many requests arrive meanwhile.
 *
 * With a `signal` that is watched (PostgreSQL, the listener up: see ModelVersionSignal), a value read while watching
 * is given without reading again until the signal moves: this instance's own commits move it as they commit, and any
 * other transaction that moves the counter moves it when its notification arrives, a fraction of a millisecond after
 * its commit on a healthy connection. So an SDK poll costs no statement while nothing changes; a change made by another
 * instance or by hand is served from the first request after its notification. A notification lost without the
 * connection failing visibly is bounded by `maxAgeMs`: a trusted value is read again after that long.
 */
export class VersionReader {
  private inFlight = false;
  private next: { promise: Promise<string>; resolve: (v: string) => void; reject: (e: unknown) => void } | undefined;
  private known: { version: string; generation: number; readAt: number } | undefined;

  constructor(
    private readonly read: () => Promise<string>,
    private readonly signal?: ModelVersionSignal,
    private readonly maxAgeMs = WATCHED_VERSION_MAX_AGE_MS,
    /** The clock ages are measured on (a test moves its own). */
    private readonly now: () => number = Date.now,
  ) {}

  current(): Promise<string> {
    const known = this.known;
    if (known && this.signal?.watching && known.generation === this.signal.generation && this.now() - known.readAt < this.maxAgeMs) {
      return Promise.resolve(known.version);
    }
    if (this.next) return this.next.promise;
    let resolve!: (v: string) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<string>((res, rej) => { resolve = res; reject = rej; });
    this.next = { promise, resolve, reject };
    if (!this.inFlight) this.launch();
    return promise;
  }

  private launch(): void {
    const batch = this.next!;
    this.next = undefined;
    this.inFlight = true;
    // What the signal said as the read was issued: the value is trusted only if nothing moved since (a notification
    // that arrives while the read is under way may be of a commit the read did not see).
    const watched = this.signal?.watching ? this.signal.generation : undefined;
    const readAt = this.now();
    this.read().then((version) => {
      if (watched !== undefined && this.signal!.watching && this.signal!.generation === watched) this.known = { version, generation: watched, readAt };
      batch.resolve(version);
    }, batch.reject).finally(() => {
      this.inFlight = false;
      if (this.next) this.launch();
    });
  }
}
