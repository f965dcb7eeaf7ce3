import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import type { EventInput } from '../events/event.store';
import { NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { ownRecord } from '../records';
import { parse, sameJson } from '../validation';
import { checkConstraintsAgainst, constraintsSchema, normalizeConstraint } from './constraints';
import { assertProjectEnvironment, checkProjectEnvironment, loadProjectFeature, PROJECT_ENVIRONMENT_LINKED } from './feature.lookup';
import { FeatureReadModel, strategyKey, type FeatureEnvironmentState, type FeatureStrategy } from './feature.read-model';
import { definitionsCheck, defaultStrategySettings, STRATEGY_COLUMNS, stored, strategyEventData, strategyValues, writeSegments, writeStrategy, type DefaultStrategySetting, type DefinitionsRow } from './feature-strategy.store';
import { applyJsonPatch } from './json-patch';
import { featureVariantsSchema, strategyVariantsSchema, toFeatureVariants, toStrategyVariants, type FeatureVariant, type StrategyVariant } from './variants';

const parameterValue = z.union([z.string().max(10_000), z.number(), z.boolean()]).transform((v) => String(v));
/** Most segments one strategy may use (the UI config reports it as `strategySegmentsLimit`). */
export const MAX_STRATEGY_SEGMENTS = 100;

const strategyFields = {
  title: z.string().max(255).nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  // Parameter names are the user's: `__proto__` and `constructor` are names like any other (see records.ts).
  parameters: ownRecord(z.string().min(1).max(100), parameterValue).optional(),
  constraints: constraintsSchema.optional(),
  variants: strategyVariantsSchema.optional(),
  segments: z.array(z.number().int().min(1).max(2_147_483_647)).max(MAX_STRATEGY_SEGMENTS).optional(),
};
// Clients may send back the strategy they read: `id` and `featureName` are accepted when they match.
const identity = { id: z.string().optional(), featureName: z.string().optional(), environment: z.string().optional() };
const createSchema = z.object({ name: z.string().min(1).max(100), ...strategyFields, ...identity }).strict();
const updateSchema = z.object({ name: z.string().min(1).max(100).optional(), ...strategyFields, ...identity }).strict();
const sortOrderSchema = z.array(z.object({ id: z.string().min(1).max(100), sortOrder: z.number().int().min(-1_000_000).max(1_000_000) }).strict()).min(1).max(1000);
const switchSchema = z.object({ shouldActivateDisabledStrategies: z.boolean().optional() }).strict();
export const batchVariantsSchema = z.object({ variants: featureVariantsSchema, environments: z.array(z.string().min(1).max(100)).min(1).max(100) }).strict();

export type StrategyInput = z.input<typeof createSchema>;

/** The payload shapes of direct strategy changes, which change requests validate their changes with (issue 12). */
export const strategyPayloadSchemas = { create: createSchema, update: updateSchema, sortOrder: sortOrderSchema, switch: switchSchema } as const;
type StrategyData = z.output<typeof updateSchema>;

/** A strategy sent back as read may repeat `featureName` and `environment`; they must name the path's feature and environment. */
function assertSameFeatureAndEnvironment(data: { featureName?: string; environment?: string }, feature: string, environment: string): void {
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
interface StrategyDraft {
  strategy: FeatureStrategy;
  details: ErrorDetail[];
  variantsError?: unknown;
}

function draftStrategy(id: string, feature: string, data: StrategyData & { name: string }, segments: number[]): StrategyDraft {
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
function judgeStrategy(draft: StrategyDraft, row: DefinitionsRow, constraints: StrategyData['constraints']): void {
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

/** Strategies of a feature in an environment, enabling and disabling environments, and variants. */
export class FeatureStrategyService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  // ---- reads -------------------------------------------------------------------------------------------------

  async environment(project: string, feature: string, environment: string): Promise<FeatureEnvironmentState & { strategies: FeatureStrategy[] }> {
    await loadProjectFeature(this.em, project, feature);
    await assertProjectEnvironment(this.em, project, environment);
    const read = new FeatureReadModel(this.em);
    const state = (await read.environments([feature])).get(feature)?.find((e) => e.name === environment);
    if (!state) throw new NotFoundError(`The feature ${feature} has no configuration in the environment ${environment}`);
    const strategies = (await read.strategies([feature])).get(strategyKey(feature, environment)) ?? [];
    return { ...state, strategies };
  }

  async list(project: string, feature: string, environment: string): Promise<FeatureStrategy[]> {
    return (await this.environment(project, feature, environment)).strategies;
  }

  async get(project: string, feature: string, environment: string, id: string): Promise<FeatureStrategy> {
    await loadProjectFeature(this.em, project, feature);
    return this.loadStrategy(this.em, feature, environment, id);
  }

  // ---- strategies --------------------------------------------------------------------------------------------

  async add(project: string, feature: string, environment: string, input: StrategyInput): Promise<FeatureStrategy> {
    const data = parse(createSchema, input);
    assertSameFeatureAndEnvironment(data, feature, environment);
    await this.access.check('CREATE_FEATURE_STRATEGY', { project, environment });
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      return this.insert(tx, emit, project, feature, environment, data, true);
    });
  }

  /** PUT: the properties given replace the stored ones; absent ones are kept. */
  async update(project: string, feature: string, environment: string, id: string, input: unknown): Promise<FeatureStrategy> {
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_FEATURE_STRATEGY', { project, environment });
    return this.modify(project, feature, environment, id, () => data);
  }

  /** PATCH: an RFC 6902 patch over the strategy `{name, title, disabled, sortOrder, parameters, constraints, variants, segments}`. */
  async patch(project: string, feature: string, environment: string, id: string, operations: unknown): Promise<FeatureStrategy> {
    await this.access.check('UPDATE_FEATURE_STRATEGY', { project, environment });
    return this.modify(project, feature, environment, id, (current) => {
      const { id: _id, featureName: _f, ...document } = current;
      return parse(updateSchema, applyJsonPatch(document, operations));
    });
  }

  /** Removes a strategy; an enabled environment left without active strategies is switched off (it would otherwise be on for everyone). */
  async remove(project: string, feature: string, environment: string, id: string): Promise<void> {
    await this.access.check('DELETE_FEATURE_STRATEGY', { project, environment });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      const strategy = await this.loadStrategy(tx, feature, environment, id);
      await tx.execute(`delete from feature_strategies where id = ?`, [id]);
      emit({ type: 'feature-strategy-remove', project, environment, featureName: feature, preData: strategyEventData(strategy) });
      await this.disableWithoutActiveStrategies(tx, emit, project, feature, environment);
    });
  }

  /** `[{id, sortOrder}]`: every id must be a strategy of the feature in the environment. Event strategy-order-changed. */
  async setSortOrder(project: string, feature: string, environment: string, input: unknown): Promise<void> {
    const orders = parse(sortOrderSchema, input);
    await this.access.check('UPDATE_FEATURE_STRATEGY', { project, environment });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      const before = (await new FeatureReadModel(tx).strategies([feature])).get(strategyKey(feature, environment)) ?? [];
      const known = new Set(before.map((s) => s.id));
      const unknown = orders.map((o, i) => ({ o, i })).filter(({ o }) => !known.has(o.id));
      if (unknown.length > 0) {
        throw ValidationError.of(unknown.map(({ o, i }) => ({ path: `${i}/id`, message: `${o.id} is not a strategy of ${feature} in the environment ${environment}.` })));
      }
      for (const o of orders) await tx.execute(`update feature_strategies set sort_order = ? where id = ?`, [o.sortOrder, o.id]);
      const after = (await new FeatureReadModel(tx).strategies([feature])).get(strategyKey(feature, environment)) ?? [];
      const beforeIds = before.map((s) => ({ id: s.id, sortOrder: s.sortOrder }));
      const afterIds = after.map((s) => ({ id: s.id, sortOrder: s.sortOrder }));
      if (!sameJson(beforeIds, afterIds)) {
        emit({ type: 'strategy-order-changed', project, environment, featureName: feature, data: { strategyIds: afterIds }, preData: { strategyIds: beforeIds } });
      }
    });
  }

  // ---- environments ------------------------------------------------------------------------------------------

  /**
   * Switches a feature on or off in an environment. Switching on when no strategy is active adds the project's default
   * strategy (or a 100 % gradual rollout), unless `shouldActivateDisabledStrategies` asks to re-enable the disabled ones.
   */
  async setEnabled(project: string, feature: string, environment: string, enabled: boolean, input: unknown = {}): Promise<void> {
    const { shouldActivateDisabledStrategies } = parse(switchSchema, input ?? {});
    await this.access.check('UPDATE_FEATURE_ENVIRONMENT', { project, environment });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      // After the feature's lock, one statement: the environment's link to the project, the configuration row (locked;
      // null when there is none) and how many strategies it has, active or not (every change of those holds the lock).
      const [row]: Array<{ linked: boolean | null; enabled: boolean | null; strategies: number; active: number }> = await tx.execute(
        `select ${PROJECT_ENVIRONMENT_LINKED} as linked,
                (select enabled from feature_environments where feature_name = ? and environment = ? for update) as enabled,
                (select count(*) from feature_strategies where feature_name = ? and environment = ?)::int as strategies,
                (select count(*) from feature_strategies where feature_name = ? and environment = ? and not disabled)::int as active`,
        [project, environment, feature, environment, feature, environment, feature, environment]);
      checkProjectEnvironment(project, environment, row.linked);
      if (row.enabled === null) {
        await tx.execute(`insert into feature_environments (feature_name, environment, enabled) values (?, ?, false)`, [feature, environment]);
      }
      const wasEnabled = row.enabled ?? false;
      if (enabled && row.active === 0) {
        if (shouldActivateDisabledStrategies && row.strategies > 0) {
          const strategies = (await new FeatureReadModel(tx).strategies([feature])).get(strategyKey(feature, environment)) ?? [];
          for (const s of strategies) {
            await tx.execute(`update feature_strategies set disabled = false where id = ?`, [s.id]);
            emit({ type: 'feature-strategy-update', project, environment, featureName: feature, data: strategyEventData({ ...s, disabled: false }), preData: strategyEventData(s) });
          }
        } else {
          await this.insert(tx, emit, project, feature, environment, defaultStrategyFrom((await defaultStrategySettings(tx, project, [environment])).get(environment), feature));
        }
      }
      if (wasEnabled === enabled) return;
      await tx.execute(`update feature_environments set enabled = ? where feature_name = ? and environment = ?`, [enabled, feature, environment]);
      emit({ type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled', project, environment, featureName: feature });
    });
  }

  // ---- variants ----------------------------------------------------------------------------------------------

  async environmentVariants(project: string, feature: string, environment: string): Promise<FeatureVariant[]> {
    return (await this.environment(project, feature, environment)).variants;
  }

  async setEnvironmentVariants(project: string, feature: string, environment: string, input: unknown): Promise<FeatureVariant[]> {
    const variants = toFeatureVariants(parse(featureVariantsSchema, input), '');
    await this.access.check('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project, environment });
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      await assertProjectEnvironment(tx, project, environment);
      return this.writeVariants(tx, emit, project, feature, environment, () => variants);
    });
  }

  async patchEnvironmentVariants(project: string, feature: string, environment: string, operations: unknown): Promise<FeatureVariant[]> {
    await this.access.check('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project, environment });
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      await assertProjectEnvironment(tx, project, environment);
      return this.writeVariants(tx, emit, project, feature, environment,
        (current) => toFeatureVariants(parse(featureVariantsSchema, applyJsonPatch(current, operations)), ''));
    });
  }

  /** `PUT .../variants-batch {variants, environments}`: the same variants in several environments, in one transaction. */
  async setVariantsInEnvironments(project: string, feature: string, input: unknown): Promise<FeatureVariant[]> {
    const data = parse(batchVariantsSchema, input);
    const variants = toFeatureVariants(data.variants, 'variants');
    const environments = [...new Set(data.environments)];
    for (const environment of environments) await this.access.check('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project, environment });
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environments);
      await loadProjectFeature(tx, project, feature, true);
      for (const environment of environments) {
        await assertProjectEnvironment(tx, project, environment);
        await this.writeVariants(tx, emit, project, feature, environment, () => variants);
      }
      return variants;
    });
  }

  /** Legacy feature-level variants (`PUT|PATCH .../features/:f/variants`): every environment of the feature at once. */
  async setFeatureVariants(project: string, feature: string, input: unknown, patch = false): Promise<FeatureVariant[]> {
    await this.access.check('UPDATE_FEATURE_VARIANTS', { project });
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      await loadProjectFeature(tx, project, feature, true);
      const envs: Array<{ environment: string; variants: FeatureVariant[] | null }> = await tx.execute(
        `select fe.environment, fe.variants from feature_environments fe join environments e on e.name = fe.environment
          where fe.feature_name = ? order by e.sort_order, e.name`, [feature]);
      const before = envs.find((e) => (e.variants ?? []).length > 0)?.variants ?? [];
      const variants = toFeatureVariants(parse(featureVariantsSchema, patch ? applyJsonPatch(before, input) : input), '');
      await tx.execute(`update feature_environments set variants = ?::jsonb where feature_name = ?`, [JSON.stringify(variants), feature]);
      if (!sameJson(before, variants) || envs.some((e) => !sameJson(e.variants ?? [], variants))) {
        emit({ type: 'feature-variants-updated', project, featureName: feature, data: { variants }, preData: { variants: before } });
      }
      return variants;
    });
  }

  // ---- internals ---------------------------------------------------------------------------------------------

  private async writeVariants(
    tx: EntityManager, emit: (e: EventInput) => void, project: string, feature: string, environment: string,
    next: (current: FeatureVariant[]) => FeatureVariant[],
  ): Promise<FeatureVariant[]> {
    const rows: Array<{ variants: FeatureVariant[] | null }> = await tx.execute(
      `select variants from feature_environments where feature_name = ? and environment = ? for update`, [feature, environment]);
    const before = rows[0]?.variants ?? [];
    const variants = next(before);
    if (sameJson(before, variants)) return variants;
    await tx.execute(
      `insert into feature_environments (feature_name, environment, enabled, variants) values (?, ?, false, ?::jsonb)
       on conflict (feature_name, environment) do update set variants = excluded.variants`, [feature, environment, JSON.stringify(variants)]);
    emit({ type: 'feature-environment-variants-updated', project, environment, featureName: feature, data: { variants }, preData: { variants: before } });
    return variants;
  }

  private async modify(project: string, feature: string, environment: string, id: string, next: (current: FeatureStrategy) => StrategyData): Promise<FeatureStrategy> {
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      const current = await this.loadStrategy(tx, feature, environment, id);
      const data = next(current);
      if (data.id !== undefined && data.id !== id) throw ValidationError.single('id', 'The `id` property must equal the strategy id in the path.');
      assertSameFeatureAndEnvironment(data, feature, environment);
      const merged: StrategyData & { name: string } = mergeStrategyUpdate(current, data);
      const strategy = await this.validate(tx, project, feature, merged, id);
      if (sameJson(strategyEventData(current), strategyEventData(strategy))) return current;
      await tx.execute(
        `update feature_strategies set strategy_name = ?, title = ?, parameters = ?::jsonb, constraints = ?::jsonb, variants = ?::jsonb, sort_order = ?, disabled = ? where id = ?`,
        [strategy.name, strategy.title, JSON.stringify(strategy.parameters), JSON.stringify(strategy.constraints), JSON.stringify(strategy.variants), strategy.sortOrder, strategy.disabled, id]);
      if (!sameJson(current.segments, strategy.segments)) await writeSegments(tx, id, strategy.segments, true);
      emit({ type: 'feature-strategy-update', project, environment, featureName: feature, data: strategyEventData(strategy), preData: strategyEventData(current) });
      await this.disableWithoutActiveStrategies(tx, emit, project, feature, environment);
      return strategy;
    });
  }

  /**
   * Validates and inserts a new strategy. With `checkEnvironment`, the environment's link to the project is checked in
   * the same statement as the definitions. Without segments (whose rows are read locked first), that statement also
   * inserts the row when the definition exists and the checks that need no database passed; the rules are then judged
   * in the order `validate` judges them, and one that refuses throws, which rolls the insert back with the transaction.
   */
  private async insert(
    tx: EntityManager, emit: (e: EventInput) => void, project: string, feature: string, environment: string, data: StrategyData & { name: string },
    checkEnvironment = false,
  ): Promise<FeatureStrategy> {
    const id = randomUUID();
    const appendAfterLast = data.sortOrder === undefined;
    if ((data.segments ?? []).length > 0) {
      const strategy = await this.validate(tx, project, feature, { ...data, sortOrder: data.sortOrder ?? 0 }, id, checkEnvironment ? environment : undefined);
      return writeStrategy(tx, emit, project, environment, strategy, appendAfterLast);
    }
    const draft = draftStrategy(id, feature, data, []);
    const values = strategyValues(project, environment, draft.strategy, appendAfterLast);
    const passed = draft.details.length === 0 && draft.variantsError === undefined;
    const check = definitionsCheck(data, checkEnvironment ? { project, environment } : undefined);
    const [row]: Array<DefinitionsRow & { sort_order: number | null }> = await tx.execute(
      `with chk as (${check.sql}),
       s as (insert into feature_strategies (${STRATEGY_COLUMNS}) select ${values.sql} from chk
              where chk.definition is not null${checkEnvironment ? ' and chk.linked' : ''} and ${passed ? 'true' : 'false'} returning sort_order)
       select chk.*, (select sort_order from s) as sort_order from chk`,
      [...check.params, ...values.params]);
    if (checkEnvironment) checkProjectEnvironment(project, environment, row.linked ?? null);
    judgeStrategy(draft, row, data.constraints);
    return stored(tx, emit, project, environment, { ...draft.strategy, sortOrder: row.sort_order as number });
  }

  /**
   * Checks a strategy against the definitions, context fields and segments, and returns it in stored form. With
   * `environment`, first that the environment is linked to the project (read in the same statement).
   */
  private async validate(tx: EntityManager, project: string, feature: string, data: StrategyData & { name: string }, id: string, environment?: string): Promise<FeatureStrategy> {
    // Definitions and segments the strategy uses are read locked (rule 1 in change.ts): deleting the definition, or
    // deleting or moving a segment to another project, waits for this change and then sees the strategy that uses it.
    // The definition, the context fields the constraints name and the environment link come in one statement.
    const check = definitionsCheck(data, environment === undefined ? undefined : { project, environment });
    const [row]: DefinitionsRow[] = await tx.execute(check.sql, check.params);
    if (environment !== undefined) checkProjectEnvironment(project, environment, row.linked ?? null);
    const segments = [...new Set(data.segments ?? [])].sort((a, b) => a - b);
    const draft = draftStrategy(id, feature, data, segments);
    const details = draft.details;
    // Segments are read (and locked) only for a strategy whose definition exists: that refusal comes first.
    if (row.definition !== null && segments.length > 0) {
      const found: Array<{ id: number; project: string | null }> = await tx.execute(`select id, project from segments where id in (?) order by id for share`, [segments]);
      const byId = new Map(found.map((s) => [s.id, s.project]));
      // Details name the position in the list as sent (not in the sorted, de-duplicated one).
      (data.segments ?? []).forEach((segmentId, i) => {
        if (!byId.has(segmentId)) details.push({ path: `segments/${i}`, message: `There is no segment with id ${segmentId}.` });
        else if (byId.get(segmentId) !== null && byId.get(segmentId) !== project) {
          details.push({ path: `segments/${i}`, message: `The segment ${segmentId} belongs to project ${byId.get(segmentId)} and cannot be used in project ${project}.` });
        }
      });
    }
    judgeStrategy(draft, row, data.constraints);
    return draft.strategy;
  }

  private async loadStrategy(em: EntityManager, feature: string, environment: string, id: string): Promise<FeatureStrategy> {
    const found = (await new FeatureReadModel(em).strategiesById([id])).get(id);
    if (!found || found.featureName !== feature || found.environment !== environment) {
      throw new NotFoundError(`Could not find strategy with id ${id} for feature ${feature} in environment ${environment}`);
    }
    const { environment: _env, ...strategy } = found;
    return strategy;
  }

  private async disableWithoutActiveStrategies(tx: EntityManager, emit: (e: EventInput) => void, project: string, feature: string, environment: string): Promise<void> {
    const rows: Array<{ enabled: boolean; active: number }> = await tx.execute(
      `select fe.enabled, (select count(*) from feature_strategies fs where fs.feature_name = fe.feature_name and fs.environment = fe.environment and not fs.disabled)::int as active
         from feature_environments fe where fe.feature_name = ? and fe.environment = ?`, [feature, environment]);
    if (rows[0]?.enabled && rows[0].active === 0) {
      await tx.execute(`update feature_environments set enabled = false where feature_name = ? and environment = ?`, [feature, environment]);
      emit({ type: 'feature-environment-disabled', project, environment, featureName: feature });
    }
  }
}
