import { ValidationError, type ErrorDetail } from '../errors';
import { checkConstraintsAgainst, normalizeConstraint } from './constraints';
import type { FeatureStrategy } from './feature.shapes';
import type { StrategyData } from './feature-strategy.schemas';
import type { DefaultStrategySetting, DefinitionsRow } from './feature-strategy.store';
import { toStrategyVariants } from './variants';
import type { StrategyVariant } from './variant.shapes';

/**
 * The rules of a strategy that need no database: its identity in a body sent back, its parameters, how an update
 * merges, a new strategy's stored form and how it is judged against what the database read, and the default strategy.
 * Direct changes, change requests (apply and preview) and imports share them.
 */

/** A strategy sent back as read may repeat `featureName` and `environment`; they must name the path's feature and environment. */
export function assertSameFeatureAndEnvironment(data: { featureName?: string; environment?: string }, feature: string, environment: string): void {
  if (data.featureName !== undefined && data.featureName !== feature) throw ValidationError.single('featureName', 'The `featureName` property must equal the feature in the path.');
  if (data.environment !== undefined && data.environment !== environment) throw ValidationError.single('environment', 'The `environment` property must equal the environment in the path.');
}

/** The percentage parameter of the built-in rollout strategies, by strategy name (a user may name a strategy `constructor`). */
export const PERCENT_PARAMETERS: ReadonlyMap<string, string> = new Map([
  ['flexibleRollout', 'rollout'], ['gradualRolloutUserId', 'percentage'], ['gradualRolloutSessionId', 'percentage'], ['gradualRolloutRandom', 'percentage'],
]);

/** The rules on a strategy's parameters (the rollout percentage of the built-in rollouts is a number from 0 to 100). */
export function parameterProblems(strategy: string, parameters: Record<string, string>, path: string): ErrorDetail[] {
  const percentKey = PERCENT_PARAMETERS.get(strategy);
  if (!percentKey || !Object.hasOwn(parameters, percentKey)) return [];
  const n = Number(parameters[percentKey]);
  if (parameters[percentKey].trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100) return [];
  return [{ path: `${path}/${percentKey}`, message: `The \`${percentKey}\` parameter must be a number from 0 to 100. You sent ${JSON.stringify(parameters[percentKey])}.` }];
}

/** The fields a strategy update merges (stored and sent values may differ in shape: only presence matters here). */
interface MergeableStrategy<P, C, V, S> {
  name?: string;
  title?: string | null;
  disabled?: boolean | null;
  sortOrder?: number;
  parameters?: P;
  constraints?: C;
  variants?: V;
  segments?: S;
}

/**
 * A strategy update (`PUT`, a change request's updateStrategy): each property sent replaces the stored one, an absent
 * one is kept, and `disabled: null` means enabled. The apply and the preview of change requests use the same rule.
 */
export function mergeStrategyUpdate<P, C, V, S>(current: MergeableStrategy<P, C, V, S> & { name: string }, data: MergeableStrategy<P, C, V, S>) {
  return {
    name: data.name ?? current.name,
    title: data.title !== undefined ? data.title : current.title ?? null,
    disabled: data.disabled ?? (data.disabled === null ? false : current.disabled ?? false),
    sortOrder: data.sortOrder ?? current.sortOrder,
    parameters: data.parameters ?? current.parameters,
    constraints: data.constraints ?? current.constraints,
    variants: data.variants ?? current.variants,
    segments: data.segments ?? current.segments,
  };
}

/** A new strategy in stored form, with what was found wrong in it without the database (parameters, variants). */
export interface StrategyDraft {
  strategy: FeatureStrategy;
  details: ErrorDetail[];
  variantsError?: unknown;
}

export function draftStrategy(id: string, feature: string, data: StrategyData & { name: string }, segments: number[]): StrategyDraft {
  const parameters = { ...(data.parameters ?? {}) };
  const details = parameterProblems(data.name, parameters, 'parameters');
  let variants: StrategyVariant[] = [];
  let variantsError: unknown;
  try {
    variants = toStrategyVariants(data.variants ?? [], 'variants');
  } catch (err) {
    variantsError = err;
  }
  const strategy: FeatureStrategy = {
    id, name: data.name, title: data.title ?? null, disabled: data.disabled ?? false, featureName: feature, sortOrder: data.sortOrder ?? 0,
    segments, constraints: (data.constraints ?? []).map(normalizeConstraint), variants, parameters,
  };
  return { strategy, details, variantsError };
}

/**
 * Judges a draft against what the database read (`definitionsCheck`), in the rules' order: the definition, then the
 * parameters (and segments), then the constraints, then the variants. The first that refuses throws.
 */
export function judgeStrategy(draft: StrategyDraft, row: DefinitionsRow, constraints: StrategyData['constraints']): void {
  if (row.definition === null) throw ValidationError.single('name', `Could not find strategy type with name ${draft.strategy.name}`);
  if (draft.details.length > 0) throw ValidationError.of(draft.details);
  checkConstraintsAgainst(row.fields ?? {}, constraints ?? [], 'constraints');
  if (draft.variantsError !== undefined) throw draft.variantsError;
}

/**
 * The strategy added when a feature is switched on without an active one: the project environment's default (its
 * `groupId` made the feature's name), or a 100 % gradual rollout with the project's default stickiness.
 */
export function defaultStrategyFrom(setting: DefaultStrategySetting | undefined, feature: string): StrategyData & { name: string } {
  const configured = setting?.default_strategy;
  if (configured && typeof configured.name === 'string') {
    const parameters = { ...((configured.parameters as Record<string, string>) ?? {}) };
    if (Object.hasOwn(parameters, 'groupId')) parameters.groupId = feature;
    return {
      name: configured.name, title: (configured.title as string | null) ?? null, disabled: false, parameters,
      constraints: (configured.constraints as StrategyData['constraints']) ?? [], variants: (configured.variants as StrategyData['variants']) ?? [],
      segments: (configured.segments as number[]) ?? [],
    };
  }
  return { name: 'flexibleRollout', constraints: [], parameters: { rollout: '100', stickiness: setting?.default_stickiness ?? 'default', groupId: feature } };
}
