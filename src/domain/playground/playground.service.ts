import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isDate } from '../dates';
import { ValidationError } from '../errors';
import { nameMap, ownRecord } from '../records';
import { parse, URL_FRIENDLY } from '../validation';
import { playgroundSnapshotsAt } from '../history/past-answers';
import { evaluate, type CompiledSnapshot } from './engine';
import { SnapshotCache } from './snapshot-cache';
import type { EvaluationOptions, PlaygroundContext } from './types';
import type { AdvancedPlaygroundFeature, PlaygroundFeatureEvaluation } from './playground.shapes';

export { isDate };
export const DEFAULT_COMBINATION_LIMIT = 15_000;
/** Most context text (estimated JSON bytes) all entries of one advanced playground answer may repeat. */
export const MAX_CONTEXT_BYTES = 64_000_000;
/** Most context keys (after flattening `properties`) one request may send. */
export const MAX_CONTEXT_KEYS = 100;

function averageJsonLength(values: unknown[]): number {
  let sum = 0;
  for (const v of values) sum += typeof v === 'string' ? v.length + 2 : (JSON.stringify(v) ?? '').length;
  return sum / Math.max(1, values.length);
}

/**
 * The spec's Client context: `appName` required; known fields typed; any other property accepted. Property names are
 * the user's (`__proto__` included): zod's output drops a `__proto__` key, so evaluation reads the context as sent.
 */
export const contextSchema = z.object({
  appName: z.string().min(1),
  currentTime: z.string().refine(isDate, { message: 'must match format "date-time"' }).optional(),
  environment: z.string().optional(),
  properties: ownRecord(z.string(), z.string()).optional(),
  remoteAddress: z.string().optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
}).passthrough();
const projectsSchema = z.union([z.literal('*'), z.array(z.string().max(100)).max(1000)], { error: 'must be "*" (all projects) or an array of project ids' }).optional();
// Unknown top-level keys are accepted and echoed back in `input`, as Unleash does.
/** Evaluates the flags as they were at this instant (issue 43), with it as the current time unless the context names one. */
const atSchema = z.string().max(40).refine(isDate, { message: 'must be an ISO 8601 date-time' }).optional()
  .describe('Evaluate the flags as they were at this instant (ISO 8601); the context’s currentTime defaults to it');
export const basicSchema = z.object({ environment: z.string().max(100), projects: projectsSchema, context: contextSchema, at: atSchema }).passthrough();
export const advancedSchema = z.object({
  environments: z.array(z.string().min(1).max(100).regex(URL_FRIENDLY, { message: 'must be URL friendly' })).min(1).max(100),
  projects: projectsSchema,
  context: contextSchema,
  at: atSchema,
}).passthrough();

/**
 * Spec endpoints 3 and 4: evaluates a client context against the features of chosen projects in chosen environments.
 * Reading needs no permission beyond authentication (Unleash: NONE), writes nothing and emits no event.
 */
export class PlaygroundService {
  /**
   * Combinations evaluated so far by this request. The service lives for one request, so the D9 limit holds for the
   * request as a whole: a GraphQL document with many advancedPlayground aliases shares one allowance.
   */
  private combinationsUsed = 0;
  /** Context bytes written out so far by this request (bounded like the combinations). */
  private contextBytesUsed = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly combinationLimit = DEFAULT_COMBINATION_LIMIT,
    private readonly cache: SnapshotCache = new SnapshotCache(),
    /** Told of each evaluation this service completes (the metrics count them, REST and GraphQL alike). */
    private readonly onEvaluated?: (kind: 'playground' | 'advanced') => void,
  ) {}

  async evaluate(body: unknown): Promise<{ input: unknown; features: PlaygroundFeatureEvaluation[] }> {
    const input = parse(basicSchema, body);
    const snapshots = await this.snapshots([input.environment], input.projects ?? '*', input.at);
    // The context as sent (validated above), as the advanced playground evaluates it.
    const context = (body as { context: PlaygroundContext }).context;
    const features = evaluate(snapshots.get(input.environment)!, context, input.environment, evaluationOptions(input.at));
    this.onEvaluated?.('playground');
    return { input: body, features };
  }

  /**
   * Every combination of the comma-separated context values (properties flattened to the top level), in every
   * environment; results grouped by feature, then environment. Refuses more than the combination limit (D9).
   */
  async evaluateAdvanced(body: unknown): Promise<{ input: unknown; features: AdvancedPlaygroundFeature[] }> {
    const input = parse(advancedSchema, body);
    const environments = input.environments;
    // The context as sent (validated above): its key order decides the order of the combinations.
    const axes = contextAxes((body as { context: Record<string, unknown> }).context);
    if (axes.length > MAX_CONTEXT_KEYS) {
      throw ValidationError.single('context', `The context has ${axes.length} fields (properties included); at most ${MAX_CONTEXT_KEYS} are evaluated.`);
    }
    const contexts = axes.reduce((n, [, values]) => n * values.length, 1);
    const snapshots = await this.snapshots(environments, input.projects ?? '*', input.at);
    const featureCount = snapshots.get(environments[0])!.features.length;
    const total = environments.length * featureCount * contexts;
    if (total > this.combinationLimit) {
      throw ValidationError.single('context', `Rejecting evaluation as it would generate ${total} combinations exceeding ${this.combinationLimit} limit. Please reduce the number of selected environments (${environments.length}), features (${featureCount}), context field combinations (${contexts}).`);
    }
    if (this.combinationsUsed + total > this.combinationLimit) {
      throw ValidationError.single('context', `Rejecting evaluation as it would generate ${total} combinations on top of the ${this.combinationsUsed} this request already evaluated, exceeding the ${this.combinationLimit} limit of one request. Please send fewer evaluations in one request.`);
    }
    this.combinationsUsed += total;
    // Nothing to evaluate: the product of the context values is not bounded by the limit then, so never build it.
    if (featureCount === 0) {
      this.onEvaluated?.('advanced');
      return { input: body, features: [] };
    }
    // Every entry repeats its combination's context, so the limit on combinations alone does not bound the response:
    // a 90 kB value in 15,000 entries would be 1.3 GB. Bound the contexts written out as well.
    const contextBytes = total * axes.reduce((sum, [key, values]) => sum + key.length + 6 + averageJsonLength(values), 2);
    if (contextBytes > MAX_CONTEXT_BYTES) {
      throw ValidationError.single('context', `Rejecting evaluation as its results would repeat about ${Math.round(contextBytes / 1e6)} MB of context values (at most ${MAX_CONTEXT_BYTES / 1e6} MB). Please send fewer or shorter context values, or select fewer environments (${environments.length}) or features (${featureCount}).`);
    }
    if (this.contextBytesUsed + contextBytes > MAX_CONTEXT_BYTES) {
      throw ValidationError.single('context', `Rejecting evaluation as this request's results would repeat more than ${MAX_CONTEXT_BYTES / 1e6} MB of context values in all. Please send fewer evaluations in one request.`);
    }
    this.contextBytesUsed += contextBytes;
    const combinations = expand(axes);
    const options = evaluationOptions(input.at);
    const grouped = new Map<string, AdvancedPlaygroundFeature>();
    for (const environment of environments) {
      const compiled = snapshots.get(environment)!;
      for (const context of combinations) {
        for (const result of evaluate(compiled, context as PlaygroundContext, environment, options)) {
          let feature = grouped.get(result.name);
          if (!feature) grouped.set(result.name, (feature = { name: result.name, projectId: result.projectId, environments: nameMap() }));
          (feature.environments[environment] ??= []).push({ ...result, environment, context });
        }
      }
    }
    this.onEvaluated?.('advanced');
    return { input: body, features: [...grouped.values()] };
  }

  /** The compiled snapshots of now (cached) or of a past instant (from versions). */
  private snapshots(environments: readonly string[], projects: readonly string[] | '*', at: string | undefined): Promise<Map<string, CompiledSnapshot>> {
    return at === undefined ? this.cache.get(this.em, environments, projects) : playgroundSnapshotsAt(this.em, { at: new Date(at) }, environments, projects);
  }
}

const evaluationOptions = (at: string | undefined): EvaluationOptions | undefined => {
  if (at === undefined) return undefined;
  const now = Date.parse(at);
  return { now: () => now };
};

/**
 * The values of each context key, in key order: strings split on "," (parts not trimmed), other values as they are,
 * and `properties` flattened into the top level with its string values split the same way.
 */
function contextAxes(context: Record<string, unknown>): Array<[string, unknown[]]> {
  const axes: Array<[string, unknown[]]> = [];
  const positions = new Map<string, number>();
  const add = (key: string, value: unknown) => {
    const existing = positions.get(key);
    const values = typeof value === 'string' ? value.split(',') : [value];
    if (existing !== undefined) axes[existing] = [key, values];
    else positions.set(key, axes.push([key, values]) - 1);
  };
  for (const [key, value] of Object.entries(context)) {
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [pKey, pValue] of Object.entries(value as Record<string, unknown>)) add(pKey, pValue);
    } else {
      add(key, value);
    }
  }
  return axes;
}

/**
 * The cartesian product, first key varying slowest. Each combination is built once from its own entries (an odometer
 * over the axes), so the work is combinations × keys: copying partial objects key by key would be quadratic in the
 * number of keys, which a 100 kB context with thousands of single-valued keys turns into seconds of blocked event loop.
 */
function expand(axes: Array<[string, unknown[]]>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (axes.some(([, values]) => values.length === 0)) return out;
  const index = new Array<number>(axes.length).fill(0);
  for (;;) {
    // fromEntries defines own properties, so a key such as "__proto__" stays a plain context field.
    out.push(Object.fromEntries(axes.map(([key, values], i) => [key, values[index[i]]])));
    let i = axes.length - 1;
    while (i >= 0 && ++index[i] === axes[i][1].length) index[i--] = 0;
    if (i < 0) return out;
  }
}
