import { z } from 'zod';
import { tokenReadScope, type Principal } from '../access/principal';
import { parse } from '../validation';

/**
 * The bodies SDKs send to `…/client/register` and `…/client/metrics` (issue 14), as the official SDKs send them. The
 * SDKs add fields of their own (connectionId, platformName, specVersion, impactMetrics, …): those are accepted and
 * left out, as Unleash does (Joi `stripUnknown`). Whatever is read is bounded, so a client cannot make one report
 * count more than MAX_COUNT or store text of unbounded length.
 */

/** Largest yes, no or variant count one report may carry for one feature (a 32-bit count per bucket). */
export const MAX_COUNT = 2_147_483_647;
/** Longest application name, instance id, SDK version or variant name kept. */
export const MAX_NAME = 255;

const count = z.number().int().min(0).max(MAX_COUNT);
/** A date-time as the SDKs send it: an ISO 8601 / RFC 3339 string (Go sends nanoseconds) or epoch milliseconds. */
const dateTime = z.union([z.string().max(64), z.number()])
  .refine((v) => Number.isFinite(new Date(v).getTime()), { message: 'must be a date-time (an ISO 8601 string such as 2026-11-22T10:00:00.000Z)' })
  .transform((v) => new Date(v));
const appName = z.string().min(1).max(MAX_NAME);
/** Unleash: an empty or null instance id is `default`. */
const instanceId = z.string().max(MAX_NAME).nullish().transform((v) => (v ? v : 'default'));
const environment = z.string().max(100).nullish();

const toggle = z.object({
  yes: count.default(0),
  no: count.default(0),
  variants: z.record(z.string().max(MAX_NAME), count).nullish(),
});

/** The rules of a metrics report, which also word every refusal (exported for the unit test of `readReport`). */
export const metricsSchema = z.object({
  appName,
  instanceId,
  environment,
  bucket: z.object({
    start: dateTime,
    stop: dateTime,
    toggles: z.record(z.string(), toggle).default({}),
  }),
});

export const registerSchema = z.object({
  appName,
  instanceId,
  environment,
  sdkVersion: z.string().max(MAX_NAME).nullish(),
  // Unleash keeps the strings and drops anything else in the list.
  strategies: z.array(z.unknown()).max(1000).transform((list) => list.filter((s): s is string => typeof s === 'string' && s.length <= MAX_NAME)),
  started: dateTime,
  interval: z.number().min(0).max(MAX_COUNT),
});

/** One feature's counts in a report (absent counts are 0). */
export interface ToggleCounts {
  yes?: number;
  no?: number;
  variants?: Record<string, number> | null;
}

/** A validated metrics report. */
export interface MetricsReport {
  appName: string;
  instanceId: string;
  environment?: string | null;
  bucket: { start: Date; stop: Date; toggles: Record<string, ToggleCounts> };
}
export type Registration = z.output<typeof registerSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COUNT;
const optionalText = (v: unknown, max: number) => v === undefined || v === null || (typeof v === 'string' && v.length <= max);
function readDate(v: unknown): Date | undefined {
  if (!((typeof v === 'string' && v.length <= 64) || typeof v === 'number')) return undefined;
  const d = new Date(v);
  return Number.isFinite(d.getTime()) ? d : undefined;
}

/**
 * The hot path of metrics intake (a report every few seconds from every SDK): the same rules as `metricsSchema`,
 * checked in place without building a copy of the toggles. Anything it does not accept goes to the schema, which
 * accepts it after all or names the property at fault, so the answers are the schema's either way. Bodies come
 * through the HTTP door, which has already refused text PostgreSQL cannot store (src/request-guard.ts).
 */
export function readReport(body: unknown): MetricsReport | undefined {
  if (!isObject(body)) return undefined;
  const { appName, instanceId, environment, bucket } = body;
  if (typeof appName !== 'string' || appName.length < 1 || appName.length > MAX_NAME) return undefined;
  if (!optionalText(instanceId, MAX_NAME) || !optionalText(environment, 100) || !isObject(bucket)) return undefined;
  const start = readDate(bucket.start);
  const stop = readDate(bucket.stop);
  const toggles = bucket.toggles === undefined ? {} : bucket.toggles;
  if (!start || !stop || !isObject(toggles)) return undefined;
  for (const name in toggles) {
    if (!Object.prototype.hasOwnProperty.call(toggles, name)) continue;
    const t = toggles[name];
    if (!isObject(t) || (t.yes !== undefined && !isCount(t.yes)) || (t.no !== undefined && !isCount(t.no))) return undefined;
    const variants = t.variants;
    if (variants !== undefined && variants !== null) {
      if (!isObject(variants)) return undefined;
      for (const v in variants) if (v.length > MAX_NAME || !isCount(variants[v])) return undefined;
    }
  }
  return {
    appName, instanceId: typeof instanceId === 'string' && instanceId ? instanceId : 'default', environment: environment as string | null | undefined,
    bucket: { start, stop, toggles: toggles as Record<string, ToggleCounts> },
  };
}

/** A metrics report, or a ValidationError naming the property (`bucket/toggles/<name>/yes`, `bucket/start`, …). */
export const parseMetricsReport = (body: unknown): MetricsReport => readReport(body) ?? parse(metricsSchema, body);
/** A registration, or a ValidationError naming the property. */
export const parseRegistration = (body: unknown): Registration => parse(registerSchema, body);

/**
 * The environment a report counts in, as Unleash decides it: a client or frontend token's own environment; for a token
 * of every environment (admin tokens, `*`), the one the body names, else `default`.
 */
export function reportEnvironment(principal: Principal, bodyEnvironment: string | null | undefined): string {
  return tokenReadScope(principal, bodyEnvironment || undefined).environment;
}
