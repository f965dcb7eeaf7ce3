import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { checkPasswordStrength } from './domain/access/password';
import type { DeliveryOptions } from './domain/addons/delivery-options';
import { MEMORY_SOFT_LIMIT_MB } from './idle-gc';
import { DEFAULT_STALL_TIMEOUT_MS } from './db/connection-guard';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** How log lines are written: one JSON object a line, or pino-pretty's lines for people. */
export type LogFormat = 'json' | 'pretty';

export interface Config {
  port: number;
  /** PostgreSQL server; undefined means the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Admin tokens created at start when absent, e.g. `*:*.some-secret`. */
  initAdminApiTokens: string[];
  /** Password of the `admin` user created on a database without users; generated and printed once when unset. */
  initAdminPassword?: string;
  logLevel: LogLevel;
  /** LOG_FORMAT: `json` (default) or `pretty`. */
  logFormat: LogFormat;
  /** Upper bound of database connections in the pool (always 1 on the embedded database). */
  dbPoolMax: number;
  /** D9: most environment × feature × context combinations of one advanced playground request. */
  playgroundCombinationLimit: number;
  /** Cost budget of one GraphQL request (src/resolvers/cost.ts). */
  graphqlMaxCost: number;
  /** Graceful stop: how long requests in flight may take before their connections are cut. */
  shutdownTimeoutMs: number;
  /**
   * The address people reach the service at (PUBLIC_URL, or Unleash's UNLEASH_URL), without a trailing slash: signup
   * links, password-reset links and the SAML service-provider addresses are built from it.
   */
  publicUrl: string;
  /** Addon deliveries (ADDON_* variables, src/domain/addons/delivery-options.ts). */
  addonDelivery: DeliveryOptions;
  /** How often each instance looks for Scheduled change requests that came due (CHANGE_REQUEST_POLL_MS). */
  changeRequestPollMs: number;
  /** Body limit of the batch import, its validation and the batch export (IMPORT_BODY_LIMIT; 500 kB as Unleash). */
  importBodyLimit: string;
  /** Origins browsers may call the service from, on every path (CORS_ORIGINS, comma-separated; `*` any; none by default). */
  corsOrigins: string[];
  /** How often buffered SDK metrics are written to the database (CLIENT_METRICS_FLUSH_MS). */
  metricsFlushMs: number;
  /** How long hourly SDK metrics are kept (CLIENT_METRICS_RETENTION_HOURS; 30 days, for the exposure charts). */
  metricsRetentionHours: number;
  /** How long versions of flags and segments are kept (HISTORY_RETENTION_DAYS; 0 forever). */
  historyRetentionDays: number;
  /** RSS above which a busy process collects garbage fully now and then (MEMORY_SOFT_LIMIT_MB; 0 never). */
  memorySoftLimitMb: number;
  /**
   * TRUST_PROXY: which peers are proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed, as Express's
   * `trust proxy` setting: `false` (the default: the headers are ignored, the client is the peer), `true` (every peer,
   * so the left-most forwarded address: only when nothing can reach the service but through the proxy), a number of
   * proxy hops in front of the service, or the proxies' addresses and subnets (`loopback, 10.0.0.0/8`; also
   * `linklocal`, `uniquelocal`). It decides the client address (login limits, the request log, SDK metrics, the
   * remoteAddress strategy of the frontend API) and whether a request came over HTTPS (the session cookie's `Secure`).
   */
  trustProxy: TrustProxy;
  /** Database outages (issue 42): how long an SDK door waits for the database before answering from its last state (SDK_STALE_AFTER_MS). */
  sdkStaleAfterMs: number;
  /** How long after its last check against the database an API token keeps working while the database is away (SDK_TOKEN_GRACE_SECONDS; 0: never). */
  sdkTokenGraceSeconds: number;
  /** How long a statement may wait for any answer from a PostgreSQL server before the server is probed and, if gone, the connection given up (DATABASE_STALL_TIMEOUT_MS). */
  databaseStallTimeoutMs: number;
}

/** Express's `trust proxy` values the service takes (TRUST_PROXY). */
export type TrustProxy = boolean | number | string[];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
// An admin token is `<project>:<environment>.<secret>`; init tokens are admin tokens, so `*:*.<secret>`.
const ADMIN_TOKEN = /^\*:\*\.[A-Za-z0-9_\-]{8,200}$/;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Reads and validates the environment once; every problem is reported before anything starts. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer('PORT', env.PORT, 4242, 0, 65535);
  const dbPoolMax = integer('DB_POOL_MAX', env.DB_POOL_MAX, 10, 1, 100);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  const initAdminApiTokens = (env.INIT_ADMIN_API_TOKENS ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  for (const token of initAdminApiTokens) {
    if (!ADMIN_TOKEN.test(token)) {
      throw new ConfigError('INIT_ADMIN_API_TOKENS entries must look like "*:*.<secret>" with a secret of 8-200 letters, digits, "_" or "-"');
    }
  }
  const initAdminPassword = env.INIT_ADMIN_PASSWORD || undefined;
  if (initAdminPassword !== undefined) {
    try {
      checkPasswordStrength(initAdminPassword, 'INIT_ADMIN_PASSWORD');
    } catch (err) {
      throw new ConfigError(`INIT_ADMIN_PASSWORD is too weak: ${(err as { details?: Array<{ message: string }> }).details?.[0]?.message ?? ''}`);
    }
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (env.LOG_FORMAT?.trim().toLowerCase() || 'json') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  const playgroundCombinationLimit = integer('PLAYGROUND_COMBINATION_LIMIT', env.PLAYGROUND_COMBINATION_LIMIT, 15_000, 1, 10_000_000);
  const graphqlMaxCost = integer('GRAPHQL_MAX_COST', env.GRAPHQL_MAX_COST, 100_000, 1, 100_000_000);
  const shutdownTimeoutMs = integer('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000);
  const publicUrl = parsePublicUrl(env.PUBLIC_URL?.trim() || env.UNLEASH_URL?.trim() || `http://localhost:${port}`);
  const addonDelivery = loadDeliveryOptions(env);
  const changeRequestPollMs = integer('CHANGE_REQUEST_POLL_MS', env.CHANGE_REQUEST_POLL_MS, 1_000, 10, 600_000);
  const importBodyLimit = byteSize('IMPORT_BODY_LIMIT', env.IMPORT_BODY_LIMIT, '500kb', 1024, 100 * 1024 * 1024);
  const corsOrigins = parseOrigins(env.CORS_ORIGINS);
  const metricsFlushMs = integer('CLIENT_METRICS_FLUSH_MS', env.CLIENT_METRICS_FLUSH_MS, 5_000, 10, 600_000);
  const metricsRetentionHours = integer('CLIENT_METRICS_RETENTION_HOURS', env.CLIENT_METRICS_RETENTION_HOURS, 720, 1, 24 * 366);
  const historyRetentionDays = integer('HISTORY_RETENTION_DAYS', env.HISTORY_RETENTION_DAYS, 90, 0, 36_500);
  const memorySoftLimitMb = integer('MEMORY_SOFT_LIMIT_MB', env.MEMORY_SOFT_LIMIT_MB, MEMORY_SOFT_LIMIT_MB, 0, 1_048_576);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const sdkStaleAfterMs = integer('SDK_STALE_AFTER_MS', env.SDK_STALE_AFTER_MS, 1_000, 10, 60_000);
  const sdkTokenGraceSeconds = integer('SDK_TOKEN_GRACE_SECONDS', env.SDK_TOKEN_GRACE_SECONDS, 3_600, 0, 7 * 86_400);
  const databaseStallTimeoutMs = integer('DATABASE_STALL_TIMEOUT_MS', env.DATABASE_STALL_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS, 500, 3_600_000);
  return {
    port, databaseUrl, dataDir, initAdminApiTokens, initAdminPassword, logLevel, logFormat, dbPoolMax, playgroundCombinationLimit, graphqlMaxCost, shutdownTimeoutMs,
    publicUrl, addonDelivery, changeRequestPollMs, importBodyLimit, corsOrigins, metricsFlushMs, metricsRetentionHours, memorySoftLimitMb, trustProxy,
    sdkStaleAfterMs, sdkTokenGraceSeconds, databaseStallTimeoutMs, historyRetentionDays,
  };
}

const TRUST_PROXY_FORMS = 'false, true, a number of proxy hops (1-100), or proxy addresses and subnets separated by commas (e.g. "loopback, 10.0.0.0/8")';

/**
 * TRUST_PROXY → Express's `trust proxy` value. A list is checked by proxy-addr, the library Express compiles it with,
 * so what passes here is exactly what Express accepts; `0` means no hop, as `false`.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY must be ${TRUST_PROXY_FORMS}, got "${raw}"`);
    return hops;
  }
  const entries = text.split(',').map((e) => e.trim());
  if (entries.some((e) => e === '')) throw new ConfigError(`TRUST_PROXY has an empty entry: it must be ${TRUST_PROXY_FORMS}, got "${raw}"`);
  try {
    proxyaddr.compile(entries);
  } catch (err) {
    throw new ConfigError(`TRUST_PROXY must be ${TRUST_PROXY_FORMS}, got "${raw}" (${(err as Error).message})`);
  }
  return entries;
}

/** `https://a.example, http://localhost:3000` → the origins, each `scheme://host[:port]` without a path; `*` alone allows any. */
function parseOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of origins) {
    if (o === '*') continue;
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      throw new ConfigError(`CORS_ORIGINS entries must be origins such as https://app.example.com, got "${o}"`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== o.replace(/\/$/, '')) {
      throw new ConfigError(`CORS_ORIGINS entries must be origins such as https://app.example.com (no path), got "${o}"`);
    }
  }
  if (origins.includes('*') && origins.length > 1) throw new ConfigError('CORS_ORIGINS: `*` allows every origin and names no other');
  return origins.map((o) => o.replace(/\/$/, ''));
}

const UNITS: ReadonlyMap<string, number> = new Map([['', 1], ['b', 1], ['kb', 1024], ['mb', 1024 * 1024]]);

/** A size as bytes (`524288`) or with a unit (`500kb`, `2mb`), between `min` and `max` bytes; returned as `<n>b` or as given. */
function byteSize(name: string, raw: string | undefined, fallback: string, min: number, max: number): string {
  const text = raw?.trim().toLowerCase();
  if (!text) return fallback;
  const m = /^(\d{1,12})\s*(b|kb|mb)?$/.exec(text);
  if (!m) throw new ConfigError(`${name} must be a size such as 500kb, 2mb or a number of bytes, got "${raw}"`);
  const bytes = Number(m[1]) * (UNITS.get(m[2] ?? '') as number);
  if (bytes < min || bytes > max) throw new ConfigError(`${name} must be between 1kb and 100mb, got "${raw}"`);
  return `${m[1]}${m[2] ?? 'b'}`;
}

function loadDeliveryOptions(env: NodeJS.ProcessEnv): DeliveryOptions {
  const allow = (env.ADDON_ALLOW_PRIVATE_URLS ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0'].includes(allow)) throw new ConfigError(`ADDON_ALLOW_PRIVATE_URLS must be true or false, got "${env.ADDON_ALLOW_PRIVATE_URLS}"`);
  const timeoutMs = integer('ADDON_TIMEOUT_MS', env.ADDON_TIMEOUT_MS, 10_000, 100, 120_000);
  return {
    allowPrivateUrls: allow === 'true' || allow === '1',
    timeoutMs,
    maxAttempts: integer('ADDON_MAX_ATTEMPTS', env.ADDON_MAX_ATTEMPTS, 5, 1, 50),
    retryBaseMs: integer('ADDON_RETRY_BASE_MS', env.ADDON_RETRY_BASE_MS, 5_000, 1, 3_600_000),
    pollMs: integer('ADDON_POLL_MS', env.ADDON_POLL_MS, 1_000, 10, 600_000),
    leaseMs: integer('ADDON_LEASE_MS', env.ADDON_LEASE_MS, timeoutMs + 20_000, timeoutMs + 100, 3_600_000),
    concurrency: integer('ADDON_CONCURRENCY', env.ADDON_CONCURRENCY, 8, 1, 100),
  };
}

/** An absolute http(s) URL without query or fragment; returned without its trailing slash. */
export function parsePublicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL without credentials, query or fragment, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, '');
}
