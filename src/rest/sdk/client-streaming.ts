import type { Request, Response } from 'express';
import { advanceAll, catchUpFrom, deltaState, hydrationEvent, type DeltaState } from '../../domain/client-features/client-delta';
import type { VersionReader } from '../../domain/client-features/version-reader';
import { TooManyRequestsError } from '../../domain/errors';
import { answerKey, type ClientAnswer, type ClientAnswerCache, type ClientAnswerKey } from './client-answers';
import { DELTA_JSON, deltaBody, hydrationBody } from './client-delta.wire';
import { currentOrKept } from '../../domain/last-known';
import { markStale } from './stale';
import type { SdkDeps } from './sdk-deps';

export interface ClientStreamOptions {
  /** How often `model_version` is read while streams are open (the bound on how late a change is pushed). */
  pollMs: number;
  /** How often an idle stream gets a comment line, so proxies and the SDK's read timeout (60 s) keep it open. */
  keepAliveMs: number;
  /** Most streams open at once on this instance; one more is a 429, on which the Node SDK falls back to polling. */
  maxStreams: number;
}

/** Writing to a response that ended or whose socket is gone would raise an error nobody handles. */
const writable = (res: Response) => !res.writableEnded && !res.destroyed;

export const DEFAULT_STREAM_OPTIONS: ClientStreamOptions = { pollMs: 500, keepAliveMs: 15_000, maxStreams: 1000 };

/** The streams of one scope, and the state every one of them holds once it has been sent what was written to it. */
interface Group {
  key: ClientAnswerKey;
  cacheKey: string;
  state: DeltaState<string>;
  members: Set<Stream>;
  /** The hydration event of `state` at `hydratedAt` (sent to each new stream until the state moves). */
  hydration?: Buffer;
  hydratedAt?: bigint;
}

interface Stream {
  res: Response;
  group: Group;
  /** The socket's buffer is full: nothing more is written until it drains. */
  blocked: boolean;
  /** It missed a delta while blocked: once drained it is sent its group's whole state. */
  behind: boolean;
}

const END = Buffer.from('\n\n');

/** A server-sent event; the JSON has no line breaks, so it is one `data` line. */
const frame = (event: string, revision: bigint, body: string) => Buffer.from(`event: ${event}\nid: ${revision}\ndata: ${body}\n\n`);

/**
 * The state an answer (in the `separate` segment mode) describes: its flags' and segments' JSON as sent, which is
 * DELTA_JSON's form (each flag serialized as read), so a flag read again compares equal while it is unchanged.
 */
function stateFromAnswer(answer: ClientAnswer): DeltaState<string> {
  return deltaState(BigInt(answer.version), new Map(answer.features), new Map(answer.segments.map((s) => [s.id, DELTA_JSON.segment(s)])));
}

/** `Last-Event-ID` as a revision; undefined when absent or not one of ours (an answer's ETag of before issue 32). */
function lastRevision(req: Request): bigint | undefined {
  const raw = req.headers['last-event-id'];
  return typeof raw === 'string' && /^\d{1,19}$/.test(raw.trim()) ? BigInt(raw.trim()) : undefined;
}

/**
 * `GET /api/client/streaming`: server-sent events as the official Node SDK (6.x, `experimentalMode: {type:
 * 'streaming'}`) reads them, in the delta form (issue 32: which events, src/domain/client-features/client-delta.ts;
 * their JSON, src/rest/sdk/client-delta.wire.ts). On connect,
 * `unleash-connected` with a `hydration` of the token's scope; after each change, `unleash-updated` with only the
 * flags and segments that differ from what the stream holds, and nothing when the change is of nothing it can see;
 * `: keep-alive` comments in between. Each event's `id` is the revision it brings the client to, so a reconnect with
 * `Last-Event-ID` is sent just what it missed (from the revision log), or a hydration when the log no longer reaches
 * it. Every SDK that reads this path reads deltas (Unleash's own streaming only ever sent them), so the whole-answer
 * form is not kept.
 *
 * Streams of one scope share a group: its state is read once, and a change costs one read of the log and of the
 * changed flags per group, whatever the number of streams or of flags. How changes are found, on every instance:
 * `model_version` is read every `pollMs` while any stream is open (one read for all of them) and at once after each
 * commit the event hub announces; the counter is moved by triggers, so the poll sees every write.
 *
 * Streams end when the hub closes (the service is stopping); a client that does not read is sent nothing more until
 * its socket drains, then its group's whole state (never a backlog).
 */
export class ClientStreams {
  private readonly groups = new Map<string, Group>();
  private streamCount = 0;
  private poll: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** When `model_version` was last read for the streams: since then, while the database is away, they may be stale. */
  private checkedAt: Date | undefined;

  constructor(
    private readonly deps: SdkDeps,
    private readonly cache: ClientAnswerCache,
    private readonly versions: VersionReader,
    private readonly options: ClientStreamOptions,
  ) {}

  get count(): number {
    return this.streamCount;
  }

  private refuseOverLimit(): void {
    if (this.streamCount >= this.options.maxStreams) {
      throw new TooManyRequestsError(`This instance already serves ${this.options.maxStreams} client streams, its limit. Poll GET /api/client/features instead, or try again later.`, 30);
    }
  }

  async connect(req: Request, res: Response, requested: ClientAnswerKey): Promise<void> {
    this.refuseOverLimit();
    if (this.deps.eventHub.closed) {
      // The service is stopping. 204 tells an EventSource not to reconnect here.
      res.status(204).end();
      return;
    }
    const key: ClientAnswerKey = { scope: requested.scope, mode: 'separate' };
    const cacheKey = answerKey(key);
    const resumeFrom = lastRevision(req);
    if (resumeFrom !== undefined && this.groups.has(cacheKey) && resumeFrom > this.groups.get(cacheKey)!.state.version) {
      // The client has seen a revision this instance has not pushed yet (it was connected to another): catch up first.
      this.check();
      await this.running;
    }
    let group = this.groups.get(cacheKey);
    // While the database is away a stream opens on the last state this instance knew (src/domain/last-known.ts).
    let staleSince: Date | undefined;
    if (group && this.away()) {
      staleSince = this.checkedAt ?? this.deps.lastKnown!.availability.unreachableSince;
      this.deps.lastKnown!.onStale?.('client_streaming');
    }
    if (!group) {
      const served = await currentOrKept(this.deps.lastKnown, 'client_streaming',
        async () => this.cache.get(key, await this.versions.current(), cacheKey), () => this.cache.kept(key, cacheKey));
      staleSince = served.staleSince;
      group = this.groups.get(cacheKey) ?? { key, cacheKey, state: stateFromAnswer(served.value), members: new Set() };
    }
    const at = group.state.version;
    const missed = resumeFrom !== undefined && resumeFrom < at ? await this.catchUp(key, group.state, resumeFrom) : null;
    const catchUp = missed && deltaBody(missed);
    if (res.destroyed || req.socket.destroyed) return; // gone while the state was read
    if (this.deps.eventHub.closed) {
      res.status(204).end();
      return;
    }
    this.refuseOverLimit(); // others may have opened meanwhile
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    markStale(res, staleSince);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    req.socket.setTimeout(0);
    // Another stream may have made the scope's group meanwhile, or the group moved on while the catch-up was read:
    // then the catch-up is not of the state it joins, and it is sent that state whole.
    const joined = this.groups.get(cacheKey) ?? group;
    const stream: Stream = { res, group: joined, blocked: false, behind: false };
    this.add(stream);
    res.on('close', () => this.remove(stream));
    res.on('drain', () => {
      stream.blocked = false;
      if (!stream.behind) return;
      stream.behind = false;
      this.send(stream, ...this.hydrationOf(stream.group, 'unleash-updated'));
    });
    const current = joined === group && joined.state.version === at;
    if (current && resumeFrom === at) return; // it holds this state already
    if (current && catchUp !== null) {
      if (catchUp !== undefined) this.write(stream, 'unleash-updated', catchUp);
      return;
    }
    this.send(stream, ...this.hydrationOf(joined, 'unleash-connected'));
  }

  /** Whether the database is known to be away (then streams hold their state and new ones open on the last one known). */
  private away(): boolean {
    return this.deps.lastKnown?.availability.reachable === false;
  }

  /**
   * What a reconnecting client missed since `from`, from the revision log; null (it is sent the whole state) when the
   * database is away or does not answer in time.
   */
  private async catchUp(key: ClientAnswerKey, state: DeltaState<string>, from: bigint) {
    const served = await currentOrKept(this.deps.lastKnown, undefined,
      () => catchUpFrom(this.deps.orm.em, key.scope, state, from), () => ({ value: null, confirmedAt: 0 }));
    return served.value;
  }

  /** The group's whole state as an event (`unleash-connected` on connect, `unleash-updated` to a stream that fell behind). */
  private hydrationOf(group: Group, event: 'unleash-connected' | 'unleash-updated'): Buffer[] {
    if (group.hydratedAt !== group.state.version || group.hydration === undefined) {
      group.hydration = Buffer.from(hydrationBody(hydrationEvent(group.state)));
      group.hydratedAt = group.state.version;
    }
    return [Buffer.from(`event: ${event}\nid: ${group.state.version}\ndata: `), group.hydration, END];
  }

  private add(stream: Stream): void {
    const { group } = stream;
    this.groups.set(group.cacheKey, group);
    group.members.add(stream);
    this.streamCount += 1;
    if (this.streamCount > 1) return;
    this.poll = setInterval(() => this.check(), this.options.pollMs);
    this.keepAlive = setInterval(() => {
      for (const g of this.groups.values()) for (const s of g.members) if (!s.blocked && writable(s.res)) s.res.write(': keep-alive\n\n');
    }, this.options.keepAliveMs);
    this.unsubscribe = this.deps.eventHub.subscribe(() => this.check(), () => this.endAll());
  }

  private remove(stream: Stream): void {
    const { group } = stream;
    if (!group.members.delete(stream)) return;
    if (group.members.size === 0 && this.groups.get(group.cacheKey) === group) this.groups.delete(group.cacheKey);
    this.streamCount -= 1;
    if (this.streamCount > 0) return;
    clearInterval(this.poll);
    clearInterval(this.keepAlive);
    this.unsubscribe?.();
    this.poll = this.keepAlive = this.unsubscribe = undefined;
  }

  private endAll(): void {
    for (const g of [...this.groups.values()]) {
      for (const s of [...g.members]) {
        this.remove(s);
        if (writable(s.res)) s.res.end();
      }
    }
  }

  private write(stream: Stream, event: string, body: string): void {
    this.send(stream, frame(event, stream.group.state.version, body));
  }

  /** Writes an event's bytes (made once for all the streams of a group, not copied) unless the stream's socket is full. */
  private send(stream: Stream, ...parts: Buffer[]): void {
    if (!writable(stream.res)) return; // closing: its 'close' removes it
    if (stream.blocked) {
      stream.behind = true;
      return;
    }
    let room = true;
    for (const part of parts) room = stream.res.write(part);
    if (!room) stream.blocked = true;
  }

  /** Looks for a change now (or right after the check under way); never throws. */
  private check(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pushChanges()
      .catch((err: unknown) => {
        // The database going away is logged once, where it is noticed (src/domain/database-availability.ts); streams hold their state.
        if (this.deps.lastKnown?.availability.noteError(err)) return;
        this.deps.logger.warn({ err }, 'client streams: could not check for changes');
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && this.streamCount > 0) {
          this.again = false;
          this.check();
        }
      });
  }

  private async pushChanges(): Promise<void> {
    if (this.streamCount === 0 || this.away()) return;
    const version = BigInt(await this.versions.current());
    this.checkedAt = new Date();
    const behind = [...this.groups.values()].filter((g) => g.state.version < version);
    if (behind.length === 0) return;
    const advanced = await advanceAll(this.deps.orm.em, DELTA_JSON, behind.map((g) => ({ scope: g.key.scope, state: g.state })));
    for (const group of behind) {
      const advance = advanced.get(group.state);
      const body = advance && (advance.kind === 'delta' ? deltaBody(advance.events) : hydrationBody(advance.event));
      if (!body) continue;
      const bytes = frame('unleash-updated', group.state.version, body);
      for (const s of group.members) this.send(s, bytes);
    }
  }
}
