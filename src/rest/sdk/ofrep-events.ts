import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { AuthenticationRequired, TooManyRequestsError } from '../../domain/errors';
import type { VersionReader } from '../../domain/client-features/version-reader';
import type { Logger } from '../../logger';

export interface OfrepEventsOptions {
  /** How often `model_version` is read while streams are open (the bound on how late a change is told). */
  pollMs: number;
  /** How often an idle stream gets a comment line, so proxies keep it open. */
  keepAliveMs: number;
  maxStreams: number;
  /** How long a stream address handed out in a bulk answer may be opened (a provider gets a new one at each fetch). */
  ticketTtlMs: number;
  /** OFREP's `inactivityDelaySec`: a provider whose page is hidden this long closes the stream. */
  inactivityDelaySec: number;
}

export const DEFAULT_OFREP_EVENTS: OfrepEventsOptions = { pollMs: 500, keepAliveMs: 15_000, maxStreams: 1000, ticketTtlMs: 12 * 3_600_000, inactivityDelaySec: 120 };

const HOUR_MS = 3_600_000;

const writable = (res: Response) => !res.writableEnded && !res.destroyed;

/**
 * OFREP's change notifications (ADR 0008): a bulk answer names `GET /ofrep/v1/events?ticket=…`, a server-sent event
 * stream that says `{"type":"refetchEvaluation"}` when flagdeck commits a change, so a provider fetches its flags again
 * (a 304 when its own did not change). The stream carries no flag data, only that the model moved, so it needs no
 * token: a browser's EventSource cannot send one. Its address carries a ticket this instance signed when it answered a
 * token's bulk request (an HMAC of its expiry with a key made at start): another instance, or this one restarted,
 * refuses it with a 401, and the provider falls back to polling until its next fetch hands it a fresh address.
 */
export class OfrepEvents {
  private readonly key = randomBytes(32);
  private readonly streams = new Set<Response>();
  private poller: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private version: string | undefined;

  constructor(private readonly versions: VersionReader, private readonly logger: Logger, private readonly options = DEFAULT_OFREP_EVENTS) {}

  /**
   * The stream entry of a bulk answer: its address on the host the caller used. The same while nothing changes within
   * the hour (the expiry is rounded up to one), so a provider that fetches again for another context keeps its
   * stream; `v` is the model version the answer was read at, so a change committed before the stream opens is told
   * as it opens.
   */
  async connection(req: Request): Promise<{ type: 'sse'; url: string; inactivityDelaySec: number }> {
    const version = await this.versions.current();
    const expires = (Math.floor((Date.now() + this.options.ticketTtlMs) / HOUR_MS) + 1) * HOUR_MS;
    const url = `${req.protocol}://${req.get('host')}${req.baseUrl}/events?ticket=${expires}.${this.sign(expires)}&v=${encodeURIComponent(version)}`;
    return { type: 'sse', url, inactivityDelaySec: this.options.inactivityDelaySec };
  }

  private sign(expires: number): string {
    return createHmac('sha256', this.key).update(`ofrep-events:${expires}`).digest('base64url');
  }

  private valid(ticket: unknown): boolean {
    if (typeof ticket !== 'string') return false;
    const [expires, signature] = ticket.split('.');
    const at = Number(expires);
    if (!Number.isSafeInteger(at) || at < Date.now() || !signature) return false;
    const want = Buffer.from(this.sign(at));
    const given = Buffer.from(signature);
    return given.length === want.length && timingSafeEqual(given, want);
  }

  router(): Router {
    const r = Router();
    r.get('/events', async (req: Request, res: Response) => {
      if (!this.valid(req.query.ticket)) throw new AuthenticationRequired('This event stream address has expired or was not issued by this instance: fetch the flags again (POST /ofrep/v1/evaluate/flags) for a fresh one.');
      if (this.streams.size >= this.options.maxStreams) throw new TooManyRequestsError(`This instance already serves ${this.options.maxStreams} OFREP event streams, its limit. Poll POST /ofrep/v1/evaluate/flags instead, or try again later.`, 30);
      const current = await this.versions.current();
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      res.write(': flagdeck OFREP change notifications\n\n');
      // A provider that missed a change (since the answer that named this stream, or since the last event it got before
      // reconnecting) is told at once.
      const seen = req.headers['last-event-id'] ?? req.query.v;
      if (typeof seen === 'string' && seen !== current) res.write(this.frame(current));
      this.streams.add(res);
      this.version ??= current;
      this.start();
      res.on('close', () => {
        this.streams.delete(res);
        if (this.streams.size === 0) this.stop();
      });
    });
    return r;
  }

  private frame(version: string): string {
    // No `etag`: providers send it back as `flagConfigEtag`, which is the bulk answer's ETag here, not a model version.
    return `id: ${version}\nevent: message\ndata: {"type":"refetchEvaluation"}\n\n`;
  }

  private start(): void {
    if (this.poller) return;
    this.poller = setInterval(() => { void this.poll(); }, this.options.pollMs);
    this.keepAlive = setInterval(() => { for (const res of this.streams) if (writable(res)) res.write(': keep-alive\n\n'); }, this.options.keepAliveMs);
    this.poller.unref();
    this.keepAlive.unref();
  }

  private stop(): void {
    clearInterval(this.poller);
    clearInterval(this.keepAlive);
    this.poller = undefined;
    this.keepAlive = undefined;
    this.version = undefined;
  }

  private async poll(): Promise<void> {
    let current: string;
    try {
      current = await this.versions.current();
    } catch (err) {
      // The database away: nothing to tell; the next poll tries again.
      this.logger.debug({ err }, 'OFREP events: model version unreadable');
      return;
    }
    if (current === this.version) return;
    this.version = current;
    const frame = this.frame(current);
    for (const res of this.streams) if (writable(res)) res.write(frame);
  }

  /** Ends every stream (the service stopping). */
  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
    this.stop();
  }
}
