import type { Request, Response } from 'express';
import type { ClientAnswer, ClientAnswerCache, ClientAnswerKey, VersionReader } from '../../domain/client-features/client-answer-cache';
import { TooManyRequestsError } from '../../domain/errors';
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

interface Stream {
  res: Response;
  key: ClientAnswerKey;
  cacheKey: string;
  /** ETag and version of what the client was last sent. */
  etag: string;
  version: string;
  /** The socket's buffer is full: nothing more is written until it drains; then the latest state is sent. */
  blocked: boolean;
}

/**
 * `GET /api/client/streaming`: server-sent events as the official Node SDK (6.x, `experimentalMode: {type:
 * 'streaming'}`) reads them. On connect, `unleash-connected` with the whole answer of `GET /api/client/features` (same
 * scope, filters and segment mode); after each change the client can see, `unleash-updated` with the whole new answer
 * (the SDK takes a `{features, segments}` body as a full replacement); `: keep-alive` comments in between. Each event's
 * `id` is the answer's ETag.
 *
 * How changes are found, on every instance: `model_version` is read every `pollMs` while any stream is open (one read
 * for all of them) and at once after each commit the event hub announces. The poll alone is enough and is what makes it
 * robust: the counter is moved by triggers, so it also sees writes that announce nothing (plain SQL, cascades), on the
 * embedded database and on PostgreSQL alike, and it does not depend on the LISTEN connection being up; the hub only
 * makes the common case immediate. When the counter moved, each scope with open streams gets its answer (from the cache
 * `GET` uses, rebuilt once per scope), and a stream is sent it only when its bytes differ from what it last got.
 *
 * Streams end when the hub closes (the service is stopping); a client that does not read is sent nothing more until
 * its socket drains, then the latest state (never a backlog).
 */
export class ClientStreams {
  private readonly streams = new Set<Stream>();
  private poll: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly deps: SdkDeps,
    private readonly cache: ClientAnswerCache,
    private readonly versions: VersionReader,
    private readonly options: ClientStreamOptions,
  ) {}

  get count(): number {
    return this.streams.size;
  }

  private refuseOverLimit(): void {
    if (this.streams.size >= this.options.maxStreams) {
      throw new TooManyRequestsError(`This instance already serves ${this.options.maxStreams} client streams, its limit. Poll GET /api/client/features instead, or try again later.`, 30);
    }
  }

  async connect(req: Request, res: Response, key: ClientAnswerKey, cacheKey: string): Promise<void> {
    this.refuseOverLimit();
    if (this.deps.eventHub.closed) {
      // The service is stopping. 204 tells an EventSource not to reconnect here.
      res.status(204).end();
      return;
    }
    const answer = await this.cache.get(key, await this.versions.current(), cacheKey);
    if (res.destroyed || req.socket.destroyed) return; // gone while the answer was read
    if (this.deps.eventHub.closed) {
      res.status(204).end();
      return;
    }
    this.refuseOverLimit(); // others may have opened meanwhile
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    req.socket.setTimeout(0);
    const stream: Stream = { res, key, cacheKey, etag: answer.etag, version: answer.version, blocked: false };
    this.add(stream);
    res.on('close', () => this.remove(stream));
    res.on('drain', () => {
      if (!stream.blocked) return;
      stream.blocked = false;
      stream.version = ''; // send the latest state on the next check
      this.check();
    });
    this.write(stream, 'unleash-connected', answer);
  }

  private add(stream: Stream): void {
    this.streams.add(stream);
    if (this.streams.size > 1) return;
    this.poll = setInterval(() => this.check(), this.options.pollMs);
    this.keepAlive = setInterval(() => {
      for (const s of this.streams) if (!s.blocked && writable(s.res)) s.res.write(': keep-alive\n\n');
    }, this.options.keepAliveMs);
    this.unsubscribe = this.deps.eventHub.subscribe(() => this.check(), () => this.endAll());
  }

  private remove(stream: Stream): void {
    if (!this.streams.delete(stream) || this.streams.size > 0) return;
    clearInterval(this.poll);
    clearInterval(this.keepAlive);
    this.unsubscribe?.();
    this.poll = this.keepAlive = this.unsubscribe = undefined;
  }

  private endAll(): void {
    for (const s of [...this.streams]) {
      this.remove(s);
      if (writable(s.res)) s.res.end();
    }
  }

  private write(stream: Stream, event: string, answer: ClientAnswer): void {
    stream.etag = answer.etag;
    stream.version = answer.version;
    if (!writable(stream.res)) return; // closing: its 'close' removes it
    // The cached bytes go out as they are: the JSON has no line breaks, so it is one `data` line.
    stream.res.write(`event: ${event}\nid: ${answer.etag}\ndata: `);
    stream.res.write(answer.body);
    if (!stream.res.write('\n\n')) stream.blocked = true;
  }

  /** Looks for a change now (or right after the check under way); never throws. */
  private check(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pushChanges()
      .catch((err: unknown) => { this.deps.logger.warn({ err }, 'client streams: could not check for changes'); })
      .finally(() => {
        this.running = undefined;
        if (this.again && this.streams.size > 0) {
          this.again = false;
          this.check();
        }
      });
  }

  private async pushChanges(): Promise<void> {
    if (this.streams.size === 0) return;
    const version = await this.versions.current();
    const stale = [...this.streams].filter((s) => s.version !== version && !s.blocked);
    const scopes = new Map<string, Stream[]>();
    for (const s of stale) {
      const list = scopes.get(s.cacheKey);
      if (list) list.push(s);
      else scopes.set(s.cacheKey, [s]);
    }
    for (const [cacheKey, list] of scopes) {
      const answer = await this.cache.get(list[0].key, version, cacheKey);
      for (const s of list) {
        if (!this.streams.has(s) || s.blocked) continue;
        if (s.etag === answer.etag) s.version = answer.version;
        else this.write(s, 'unleash-updated', answer);
      }
    }
  }
}
