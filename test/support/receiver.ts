import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered with. */
  status: number;
  at: number;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests it answered 2xx, by Idempotency-Key: what a receiver that drops repeats would have processed. */
  accepted(): Map<string, Received[]>;
  /** Resolves when at least `n` requests arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver for addon tests on 127.0.0.1: records every request and answers with what `answer` returns
 * for it (a status, or 'hang' to never answer; default 200).
 */
export async function startReceiver(answer: (r: Omit<Received, 'status' | 'at'>, index: number) => number | 'hang' | { status: number; location: string } = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const a = answer(seen, requests.length);
      const status = a === 'hang' ? 0 : typeof a === 'number' ? a : a.status;
      requests.push({ ...seen, status, at: Date.now() });
      for (const w of [...waiters]) if (requests.length >= w.n) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
      if (a === 'hang') { hanging.add(res); return; }
      if (typeof a === 'object') res.setHeader('location', a.location);
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    accepted() {
      const out = new Map<string, Received[]>();
      for (const r of requests) {
        if (r.status < 200 || r.status >= 300) continue;
        const key = String(r.headers['idempotency-key']);
        out.set(key, [...(out.get(key) ?? []), r]);
      }
      return out;
    },
    waitFor(n, timeoutMs = 10_000) {
      if (requests.length >= n) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${requests.length} of ${n} requests within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(requests); } });
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
