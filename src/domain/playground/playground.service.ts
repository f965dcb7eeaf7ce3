import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors';
import { parse, URL_FRIENDLY } from '../validation';
import { evaluate } from './engine';
import { SnapshotCache } from './snapshot-cache';
import type { PlaygroundContext, PlaygroundFeatureEvaluation } from './types';

export const DEFAULT_COMBINATION_LIMIT = 15_000;

/** RFC 3339 date-time (the time zone optional, as Unleash's schema accepts), and a time JavaScript can read. */
const DATE_TIME = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)?$/;
const isDate = (v: string) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
/** The spec's Client context: `appName` required; known fields typed; any other property accepted. */
const contextSchema = z.object({
  appName: z.string().min(1),
  currentTime: z.string().refine(isDate, { message: 'must match format "date-time"' }).optional(),
  environment: z.string().optional(),
  properties: z.record(z.string(), z.string()).optional(),
  remoteAddress: z.string().optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
}).passthrough();
const projectsSchema = z.union([z.literal('*'), z.array(z.string().max(100)).max(1000)], { error: 'must be "*" (all projects) or an array of project ids' }).optional();
// Unknown top-level keys are accepted and echoed back in `input`, as Unleash does.
const basicSchema = z.object({ environment: z.string().max(100), projects: projectsSchema, context: contextSchema }).passthrough();
const advancedSchema = z.object({
  environments: z.array(z.string().min(1).max(100).regex(URL_FRIENDLY, { message: 'must be URL friendly' })).min(1).max(100),
  projects: projectsSchema,
  context: contextSchema,
}).passthrough();

export type AdvancedPlaygroundEntry = PlaygroundFeatureEvaluation & { environment: string; context: Record<string, unknown> };
export interface AdvancedPlaygroundFeature {
  name: string;
  projectId: string;
  environments: Record<string, AdvancedPlaygroundEntry[]>;
}

/**
 * Spec endpoints 3 and 4: evaluates a client context against the features of chosen projects in chosen environments.
 * Reading needs no permission beyond authentication (Unleash: NONE), writes nothing and emits no event.
 */
export class PlaygroundService {
  constructor(
    private readonly em: EntityManager,
    private readonly combinationLimit = DEFAULT_COMBINATION_LIMIT,
    private readonly cache: SnapshotCache = new SnapshotCache(),
  ) {}

  async evaluate(body: unknown): Promise<{ input: unknown; features: PlaygroundFeatureEvaluation[] }> {
    const input = parse(basicSchema, body);
    const snapshots = await this.cache.get(this.em, [input.environment], input.projects ?? '*');
    return { input: body, features: evaluate(snapshots.get(input.environment)!, input.context as PlaygroundContext, input.environment) };
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
    const contexts = axes.reduce((n, [, values]) => n * values.length, 1);
    const snapshots = await this.cache.get(this.em, environments, input.projects ?? '*');
    const featureCount = snapshots.get(environments[0])!.features.length;
    const total = environments.length * featureCount * contexts;
    if (total > this.combinationLimit) {
      throw ValidationError.single('context', `Rejecting evaluation as it would generate ${total} combinations exceeding ${this.combinationLimit} limit. Please reduce the number of selected environments (${environments.length}), features (${featureCount}), context field combinations (${contexts}).`);
    }
    const combinations = expand(axes);
    const grouped = new Map<string, AdvancedPlaygroundFeature>();
    for (const environment of environments) {
      const compiled = snapshots.get(environment)!;
      for (const context of combinations) {
        for (const result of evaluate(compiled, context as PlaygroundContext, environment)) {
          let feature = grouped.get(result.name);
          if (!feature) grouped.set(result.name, (feature = { name: result.name, projectId: result.projectId, environments: {} }));
          (feature.environments[environment] ??= []).push({ ...result, environment, context });
        }
      }
    }
    return { input: body, features: [...grouped.values()] };
  }
}

/**
 * The values of each context key, in key order: strings split on "," (parts not trimmed), other values as they are,
 * and `properties` flattened into the top level with its string values split the same way.
 */
function contextAxes(context: Record<string, unknown>): Array<[string, unknown[]]> {
  const axes: Array<[string, unknown[]]> = [];
  const add = (key: string, value: unknown) => {
    const existing = axes.findIndex(([k]) => k === key);
    const values = typeof value === 'string' ? value.split(',') : [value];
    if (existing >= 0) axes[existing] = [key, values];
    else axes.push([key, values]);
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

/** The cartesian product, first key varying slowest. */
function expand(axes: Array<[string, unknown[]]>): Array<Record<string, unknown>> {
  let out: Array<Record<string, unknown>> = [{}];
  for (const [key, values] of axes) {
    const next: Array<Record<string, unknown>> = [];
    for (const partial of out) for (const value of values) next.push({ ...partial, [key]: value });
    out = next;
  }
  return out;
}
