import { TooManyRequestsError, type DomainError } from '../errors';
import type { CommittedEvents, EventHub } from './event-hub';
import type { AuditEvent } from './event.shapes';

/** Which committed events a stream passes on; every given part must match. Parsed by EventService.stream. */
export interface StreamFilter {
  /** Any of these event types (absent: every type). */
  types?: readonly string[];
  project?: string;
  feature?: string;
}

/**
 * What a stream yields: a matching event, or, once, the error that ended it (a client that fell too far behind).
 * The error is a value rather than a rejection so the GraphQL door can send it as one last result before it ends the
 * stream; a rejected `next()` would only cut the connection.
 */
export type StreamItem = AuditEvent | DomainError;

/** Streams open on each hub (one hub per app instance). */
const openStreams = new WeakMap<EventHub, number>();

export function openStreamCount(hub: EventHub): number {
  return openStreams.get(hub) ?? 0;
}

/**
 * One subscriber of the live event stream: a hub listener that keeps the matching events of each committed
 * transaction, in commit order, until its reader asks for them.
 *
 * - Bounded: a reader more than `maxBacklog` events behind gets the events it has, then the error, then the end; the
 *   stream stops listening at once, so memory stays bounded whatever the client does.
 * - Ends (`next()` resolves done) when the reader returns (the client disconnected: `signal` aborts, or the
 *   GraphQL executor calls `return()`), or when the hub closes (the service stops). Either way it stops listening.
 * - Counted per hub: opening one more than `maxStreams` throws a TooManyRequestsError.
 *
 * Not an async generator on purpose: a generator's `return()` waits for its pending `next()`, which for a quiet filter
 * may be never; here `return()` ends a pending `next()` at once.
 */
export class EventStream implements AsyncIterableIterator<StreamItem> {
  private readonly queue: StreamItem[] = [];
  private readonly waiting: Array<(result: IteratorResult<StreamItem, undefined>) => void> = [];
  private readonly types: ReadonlySet<string> | undefined;
  private ended = false;
  private unsubscribe: (() => void) | undefined;
  private readonly onAbort = () => { void this.return(); };

  constructor(private readonly hub: EventHub, private readonly filter: StreamFilter, private readonly signal?: AbortSignal) {
    const { maxStreams } = hub.streamLimits;
    const open = openStreamCount(hub);
    if (open >= maxStreams) {
      throw new TooManyRequestsError(`This instance already serves ${maxStreams} live event streams, its limit. Try again later.`, 30);
    }
    openStreams.set(hub, open + 1);
    this.types = filter.types ? new Set(filter.types) : undefined;
    // On a closed hub (the service is stopping) `finish` runs within `subscribe`: the stream is over at once.
    const unsubscribe = hub.subscribe((committed) => this.received(committed), () => this.finish());
    if (this.ended) unsubscribe();
    else this.unsubscribe = unsubscribe;
    if (signal?.aborted) this.finish();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  matches(event: AuditEvent): boolean {
    return (this.types === undefined || this.types.has(event.type))
      && (this.filter.project === undefined || event.project === this.filter.project)
      && (this.filter.feature === undefined || event.featureName === this.filter.feature);
  }

  private received({ events }: CommittedEvents): void {
    for (const event of events) {
      if (this.ended) return;
      if (!this.matches(event)) continue;
      const reader = this.waiting.shift();
      if (reader) {
        reader({ value: event, done: false });
      } else if (this.queue.length >= this.hub.streamLimits.maxBacklog) {
        const { maxBacklog } = this.hub.streamLimits;
        this.queue.push(new TooManyRequestsError(
          `This live event stream fell more than ${maxBacklog} events behind (its client reads too slowly), so it was ended. Subscribe again, and read what you missed from the event log (Query.events).`,
          1,
        ));
        this.finish();
      } else {
        this.queue.push(event);
      }
    }
  }

  /** No more events will be added: stop listening, give back the slot, and end the readers still waiting. */
  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe?.();
    openStreams.set(this.hub, Math.max(0, openStreamCount(this.hub) - 1));
    this.signal?.removeEventListener('abort', this.onAbort);
    for (const reader of this.waiting.splice(0)) reader({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<StreamItem, undefined>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => { this.waiting.push(resolve); });
  }

  /** The reader is done (disconnected): drop what is queued and stop listening. */
  return(): Promise<IteratorResult<StreamItem, undefined>> {
    this.queue.length = 0;
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<StreamItem, undefined>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
