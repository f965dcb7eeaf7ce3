import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, isRefusedAddress } from './address-policy';

/** One HTTP request an addon makes (built by formats.ts). */
export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What one attempt came to: the final status code (if any answer came), how long it took, and why it failed. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface SendOptions {
  /** The whole attempt, redirects included. */
  timeoutMs: number;
  allowPrivateUrls: boolean;
}

const MAX_REDIRECTS = 3;
/** Bytes of an answer read (and dropped) before the connection is let go. */
const MAX_ANSWER_BYTES = 64 * 1024;

class SendError extends Error {}

/**
 * Connections are kept open between deliveries (a busy receiver gets many). One pool per address policy, so a
 * connection opened where private addresses are allowed is never reused where they are not.
 */
const agents = {
  strict: { http: new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }), https: new https.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }) },
  open: { http: new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }), https: new https.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }) },
};

/** The headers kept when a redirect leads to another origin (custom headers, keys and authorization are not). */
const SAFE_ACROSS_ORIGINS = new Set(['content-type', 'user-agent', 'idempotency-key']);

/** One request, no redirects: resolves with the status and Location of the answer. */
function requestOnce(url: URL, method: string, headers: Record<string, string>, body: string | undefined, options: SendOptions, signal: AbortSignal): Promise<{ statusCode: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const host = hostOf(url);
    if (!options.allowPrivateUrls && isIP(host) && isRefusedAddress(host)) {
      reject(new SendError(`${host} is a loopback, private, link-local or reserved address, which addons may not reach`));
      return;
    }
    const secure = url.protocol === 'https:';
    const transport = secure ? https : http;
    const pool = options.allowPrivateUrls ? agents.open : agents.strict;
    const req = transport.request(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal,
      agent: secure ? pool.https : pool.http,
      ...(options.allowPrivateUrls ? {} : { lookup: guardedLookup as never }),
    }, (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const done = () => resolve({ statusCode: res.statusCode ?? 0, location: typeof res.headers.location === 'string' ? res.headers.location : undefined });
      res.once('end', done);
      res.once('close', done);
      res.once('error', () => done());
    });
    req.once('error', (err) => reject(err));
    req.end(body);
  });
}

/**
 * Sends one request: POST with the body, following at most three redirects (a 303 and, as browsers do, a 301 or 302
 * continue as a GET without body; 307 and 308 repeat the POST), each hop checked against the address policy. Never
 * throws: every failure is an outcome. Error texts name the host at most, never the path or query (a Slack or Teams
 * webhook URL's path is its secret).
 */
export async function sendRequest(request: OutgoingRequest, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const finish = (statusCode: number | null, error: string | null): AttemptOutcome =>
    ({ ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300, statusCode, durationMs: Math.round(performance.now() - started), error });
  let url = new URL(request.url);
  let method = 'POST';
  let body: string | undefined = request.body;
  let headers = request.headers;
  try {
    for (let hop = 0; ; hop++) {
      const { statusCode, location } = await requestOnce(url, method, headers, body, options, controller.signal);
      if (![301, 302, 303, 307, 308].includes(statusCode) || location === undefined) {
        return finish(statusCode, statusCode >= 200 && statusCode < 300 ? null : `the receiver answered ${statusCode}`);
      }
      if (hop >= MAX_REDIRECTS) return finish(statusCode, `more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return finish(statusCode, 'the receiver redirected to an invalid URL');
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') return finish(statusCode, 'the receiver redirected to a URL that is not http or https');
      if (next.origin !== url.origin) {
        // Credentials and custom headers are for the receiver that was configured, not for wherever it points.
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => SAFE_ACROSS_ORIGINS.has(k.toLowerCase())));
      }
      if (statusCode !== 307 && statusCode !== 308) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
      }
      url = next;
    }
  } catch (err) {
    if (controller.signal.aborted) return finish(null, `no answer within ${options.timeoutMs} ms`);
    const e = err as NodeJS.ErrnoException;
    const code = e.code && !e.message.includes(e.code) ? `${e.code}: ` : '';
    return finish(null, `${code}${e.message}`.slice(0, 500));
  } finally {
    clearTimeout(timer);
  }
}
