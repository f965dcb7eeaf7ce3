import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import type { EventInput } from '../events/event.store';
import { NotFoundError, ValidationError } from '../errors';
import { parse, sameJson } from '../validation';
import { FeatureReadModel, strategyKey } from './feature.read-model';
import type { FeatureEnvironmentState, FeatureStrategy } from './feature.shapes';
import { assertProjectEnvironment, checkProjectEnvironment, loadProjectFeature } from './feature.store';
import { activeStrategyState, insertFeatureEnvironment, lockSwitchState, setEnvironmentEnabled, switchOff } from './feature-environment.store';
import { assertSameFeatureAndEnvironment, defaultStrategyFrom, draftStrategy, judgeStrategy, mergeStrategyUpdate } from './feature-strategy.rules';
import { createSchema, sortOrderSchema, switchSchema, updateSchema, type StrategyData, type StrategyInput } from './feature-strategy.schemas';
import {
  defaultStrategySettings, deleteStrategy, enableStrategy, insertStrategyWhenValid, loadStrategy, lockSegments, readDefinitions, setStrategySortOrder,
  insertStrategy, strategyEventData, strategyValues, updateStrategy, writeSegments,
} from './feature-strategy.store';
import { FeatureVariantService } from './feature-variant.service';
import { applyJsonPatch } from './json-patch';
import type { FeatureVariant } from './variant.shapes';

/**
 * Strategies of a feature in an environment, and switching environments on and off (which may add the default
 * strategy). Environment variants have their own service, which this one answers for.
 */
export class FeatureStrategyService {
  private readonly variants: FeatureVariantService;

  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {
    this.variants = new FeatureVariantService(em, principal, access);
  }

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
    return loadStrategy(this.em, feature, environment, id);
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
      const strategy = await loadStrategy(tx, feature, environment, id);
      await deleteStrategy(tx, id);
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
      for (const o of orders) await setStrategySortOrder(tx, o.id, o.sortOrder);
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
      // After the feature's lock, one statement: the environment's link, the configuration row (locked) and its strategy counts.
      const row = await lockSwitchState(tx, project, feature, environment);
      checkProjectEnvironment(project, environment, row.linked);
      if (row.enabled === null) {
        await insertFeatureEnvironment(tx, feature, environment);
      }
      const wasEnabled = row.enabled ?? false;
      if (enabled && row.active === 0) {
        if (shouldActivateDisabledStrategies && row.strategies > 0) {
          const strategies = (await new FeatureReadModel(tx).strategies([feature])).get(strategyKey(feature, environment)) ?? [];
          for (const s of strategies) {
            await enableStrategy(tx, s.id);
            emit({ type: 'feature-strategy-update', project, environment, featureName: feature, data: strategyEventData({ ...s, disabled: false }), preData: strategyEventData(s) });
          }
        } else {
          await this.insert(tx, emit, project, feature, environment, defaultStrategyFrom((await defaultStrategySettings(tx, project, [environment])).get(environment), feature));
        }
      }
      if (wasEnabled === enabled) return;
      await setEnvironmentEnabled(tx, feature, environment, enabled);
      emit({ type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled', project, environment, featureName: feature });
    });
  }

  // ---- variants ----------------------------------------------------------------------------------------------

  async environmentVariants(project: string, feature: string, environment: string): Promise<FeatureVariant[]> {
    return (await this.environment(project, feature, environment)).variants;
  }

  setEnvironmentVariants(project: string, feature: string, environment: string, input: unknown): Promise<FeatureVariant[]> {
    return this.variants.setEnvironmentVariants(project, feature, environment, input);
  }

  patchEnvironmentVariants(project: string, feature: string, environment: string, operations: unknown): Promise<FeatureVariant[]> {
    return this.variants.patchEnvironmentVariants(project, feature, environment, operations);
  }

  setVariantsInEnvironments(project: string, feature: string, input: unknown): Promise<FeatureVariant[]> {
    return this.variants.setVariantsInEnvironments(project, feature, input);
  }

  setFeatureVariants(project: string, feature: string, input: unknown, patch = false): Promise<FeatureVariant[]> {
    return this.variants.setFeatureVariants(project, feature, input, patch);
  }

  // ---- internals ---------------------------------------------------------------------------------------------

  private async modify(project: string, feature: string, environment: string, id: string, next: (current: FeatureStrategy) => StrategyData): Promise<FeatureStrategy> {
    return change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      await loadProjectFeature(tx, project, feature, true);
      const current = await loadStrategy(tx, feature, environment, id);
      const data = next(current);
      if (data.id !== undefined && data.id !== id) throw ValidationError.single('id', 'The `id` property must equal the strategy id in the path.');
      assertSameFeatureAndEnvironment(data, feature, environment);
      const merged: StrategyData & { name: string } = mergeStrategyUpdate(current, data);
      const strategy = await this.validate(tx, project, feature, merged, id);
      if (sameJson(strategyEventData(current), strategyEventData(strategy))) return current;
      await updateStrategy(tx, id, strategy);
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
      return this.added(emit, project, environment, await insertStrategy(tx, project, environment, strategy, appendAfterLast));
    }
    const draft = draftStrategy(id, feature, data, []);
    const values = strategyValues(project, environment, draft.strategy, appendAfterLast);
    const passed = draft.details.length === 0 && draft.variantsError === undefined;
    const row = await insertStrategyWhenValid(tx, data, checkEnvironment ? { project, environment } : undefined, values, passed);
    if (checkEnvironment) checkProjectEnvironment(project, environment, row.linked ?? null);
    judgeStrategy(draft, row, data.constraints);
    // No segment links to write: a strategy with segments took the path above.
    return this.added(emit, project, environment, { ...draft.strategy, sortOrder: row.sort_order as number });
  }

  /**
   * Checks a strategy against the definitions, context fields and segments, and returns it in stored form. With
   * `environment`, first that the environment is linked to the project (read in the same statement).
   */
  private async validate(tx: EntityManager, project: string, feature: string, data: StrategyData & { name: string }, id: string, environment?: string): Promise<FeatureStrategy> {
    // Definitions and segments the strategy uses are read locked (rule 1 in change.ts): deleting the definition, or
    // deleting or moving a segment to another project, waits for this change and then sees the strategy that uses it.
    // The definition, the context fields the constraints name and the environment link come in one statement.
    const row = await readDefinitions(tx, data, environment === undefined ? undefined : { project, environment });
    if (environment !== undefined) checkProjectEnvironment(project, environment, row.linked ?? null);
    const segments = [...new Set(data.segments ?? [])].sort((a, b) => a - b);
    const draft = draftStrategy(id, feature, data, segments);
    const details = draft.details;
    // Segments are read (and locked) only for a strategy whose definition exists: that refusal comes first.
    if (row.definition !== null && segments.length > 0) {
      const found = await lockSegments(tx, segments);
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

  /** A new strategy's event, feature-strategy-add. */
  private added(emit: (e: EventInput) => void, project: string, environment: string, strategy: FeatureStrategy): FeatureStrategy {
    emit({ type: 'feature-strategy-add', project, environment, featureName: strategy.featureName, data: strategyEventData(strategy) });
    return strategy;
  }

  private async disableWithoutActiveStrategies(tx: EntityManager, emit: (e: EventInput) => void, project: string, feature: string, environment: string): Promise<void> {
    const state = await activeStrategyState(tx, feature, environment);
    if (state?.enabled && state.active === 0) {
      await switchOff(tx, feature, environment);
      emit({ type: 'feature-environment-disabled', project, environment, featureName: feature });
    }
  }
}
