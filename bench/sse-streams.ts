/**
 * Server-sent-event streams of `GET /api/client/streaming` opened with plain node:http for a bench (bench/client-deltas.ts):
 * each counts the bytes of each event, finds its end and notes its arrival, without parsing what it holds (stream 0
 * keeps its text, to check the events).
 */
import http from 'node:http';

/** Streams being opened at once (each is sent a whole hydration). */
export const STREAMS_OPENED_AT_ONCE = 50;
/** How long a wait for every stream's next event may take. */
const WAIT_LIMIT_MS = 30_000;
const LF = 0x0a;
const COLON = 0x3a;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


interface Sse {
  req: http.ClientRequest;
  /** Per event (comments not counted): its bytes and when its end arrived (performance.now()). */
  bytes: number[];
  at: number[];
  block: number;
  atStart: boolean;
  isEvent: boolean;
  endsWithLf: boolean;
  /** Stream 0 keeps its text, to check what the events hold. */
  text?: string[];
}

export class Streams {
  readonly all: Sse[] = [];
  /** How many streams have received at least n events, per n. */
  private reached: number[] = [];
  private waiters = new Map<number, () => void>();

  constructor(private readonly base: string, private readonly token: string) {}

  private record(s: Sse, now: number): void {
    s.bytes.push(s.block);
    s.at.push(now);
    const n = s.at.length;
    this.reached[n] = (this.reached[n] ?? 0) + 1;
    if (this.reached[n] === this.all.length) this.waiters.get(n)?.();
  }

  /** Finds the ends of events (`\n\n`) in what arrived; an event is a block not starting with `:` (a comment). */
  private onData(s: Sse, chunk: Buffer): void {
    const now = performance.now();
    s.text?.push(chunk.toString());
    let i = 0;
    while (i < chunk.length) {
      if (s.atStart) {
        s.isEvent = chunk[i] !== COLON;
        s.atStart = false;
        s.block = 0;
      }
      let end: number;
      if (i === 0 && s.endsWithLf && chunk[0] === LF) end = 1;
      else {
        const k = chunk.indexOf('\n\n', i);
        end = k < 0 ? -1 : k + 2;
      }
      if (end < 0) {
        s.block += chunk.length - i;
        s.endsWithLf = chunk[chunk.length - 1] === LF;
        return;
      }
      s.block += end - i;
      s.endsWithLf = false;
      s.atStart = true;
      if (s.isEvent) this.record(s, now);
      i = end;
    }
  }

  /** Opens one stream; resolves when its first event (the hydration) has arrived. */
  private open(keepText: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const s: Sse = { req: undefined as unknown as http.ClientRequest, bytes: [], at: [], block: 0, atStart: true, isEvent: false, endsWithLf: false, text: keepText ? [] : undefined };
      s.req = http.get(`${this.base}/api/client/streaming`, { agent: false, headers: { authorization: this.token, accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.on('data', (c: Buffer) => { body += c.toString(); });
          res.on('end', () => reject(new Error(`stream ${this.all.length}: ${res.statusCode} ${body.slice(0, 300)}`)));
          return;
        }
        if (keepText) this.all.unshift(s); // stream 0, whatever answered first
        else this.all.push(s);
        res.on('data', (c: Buffer) => {
          this.onData(s, c);
          if (s.at.length > 0) resolve();
        });
        res.on('error', () => {});
      });
      s.req.on('error', reject);
    });
  }

  async openMany(n: number): Promise<number> {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(STREAMS_OPENED_AT_ONCE, n) }, async () => {
      while (next < n) await this.open(next++ === 0);
    }));
    return performance.now() - t0;
  }

  /** Resolves when every stream has received `n` events. */
  until(n: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if ((this.reached[n] ?? 0) >= this.all.length) { resolve(); return; }
      const timer = setTimeout(() => reject(new Error(`after ${WAIT_LIMIT_MS} ms, ${this.reached[n] ?? 0} of ${this.all.length} streams had event ${n}`)), WAIT_LIMIT_MS);
      this.waiters.set(n, () => { clearTimeout(timer); this.waiters.delete(n); resolve(); });
    });
  }

  /** Closes all but the first `keep` streams. */
  async closeAllBut(keep: number): Promise<void> {
    for (const s of this.all.splice(keep)) s.req.destroy();
    this.reached = [];
    for (const s of this.all) for (let n = 1; n <= s.at.length; n++) this.reached[n] = (this.reached[n] ?? 0) + 1;
    await sleep(300); // the service sees the sockets close
  }

  /** The last complete event stream 0 received: its name and the flags its data names. */
  lastEventOfFirst(): { event: string; flags: number; events: number } {
    const s = this.all[0]!;
    const text = s.text!.join('');
    s.text = [];
    const blocks = text.split('\n\n').filter((b) => b && !b.startsWith(':'));
    const last = blocks[blocks.length - 1] ?? '';
    const event = /^event: (.*)$/m.exec(last)?.[1] ?? '?';
    const data = JSON.parse(/^data: (.*)$/m.exec(last)?.[1] ?? '{}') as { events?: Array<{ type: string; features?: unknown[] }> };
    const events = data.events ?? [];
    const flags = events.reduce((n, e) => n + (e.type === 'hydration' ? e.features?.length ?? 0 : e.type.startsWith('feature-') ? 1 : 0), 0);
    return { event, flags, events: events.length };
  }
}
