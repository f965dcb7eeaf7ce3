import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessService } from '../access/access.service';
import type { Grant, Scope } from '../access/rbac';
import type { Principal } from '../access/principal';
import { ConflictError, DomainError, NoAccessError } from '../errors';
import { lockFeatures } from '../features/feature.store';
import { FeatureReadModel, type FeatureStrategy } from '../features/feature.read-model';
import { FeatureStrategyService } from '../features/feature-strategy.service';
import { defaultStrategyFrom } from '../features/feature-strategy.rules';
import { defaultStrategySettings } from '../features/feature-strategy.store';
import { FeatureService } from '../features/feature.service';
import type { FeatureVariant } from '../features/variants';
import { SegmentService } from '../segments/segment.service';
import { sameJson } from '../validation';

/** A change as stored: its action's payload as validated when it was proposed, and its target as it was then. */
export interface StoredChange {
  id: number;
  feature: string | null;
  action: string;
  payload: Record<string, unknown>;
  snapshot: unknown;
}

/** A change with the environment of its request (a list of requests may span environments). */
export interface ChangeInEnvironment {
  environment: string;
  change: StoredChange;
}

/**
 * The access of applying one approved request: who may propose each change was checked when it was proposed (its
 * author needed the permission the change needs); applying needs APPLY_CHANGE_REQUEST in the request's project and
 * environment. The changes run through the services of direct edits, whose every check is answered here by that one
 * permission of the applier, checked anew against `base` (the applier's current grants) each time, and only inside
 * the request's project and, where a check names one, its environment. The change-request guard lets the changes
 * through in every environment of the project (SKIP_CHANGE_REQUEST): they are the request.
 */
export class ApplyingAccess extends AccessService {
  constructor(tx: EntityManager, principal: Principal, private readonly base: AccessService, private readonly request: { project: string; environment: string }) {
    super(tx, principal);
  }

  override async check(permission: string, scope: Scope = {}): Promise<void> {
    if (!this.covers(permission, scope)) throw new NoAccessError(permission, scope.environment);
    await this.base.check('APPLY_CHANGE_REQUEST', this.request);
  }

  override async allows(permission: string, scope: Scope = {}): Promise<boolean> {
    return this.covers(permission, scope) && this.base.allows('APPLY_CHANGE_REQUEST', this.request);
  }

  override granted(): Promise<Grant[]> {
    return this.base.granted();
  }

  private covers(permission: string, scope: Scope): boolean {
    if (scope.project !== undefined && scope.project !== this.request.project) return false;
    return permission === 'SKIP_CHANGE_REQUEST' || scope.environment === undefined || scope.environment === this.request.environment;
  }
}

/** The targets of some changes, read in one statement per kind. */
interface Targets {
  features: Map<string, { project: string; archived: boolean }>;
  strategies: Map<string, FeatureStrategy & { environment: string }>;
  variants: Map<string, FeatureVariant[]>;
  segments: Map<number, { name: string; description: string | null; project: string | null; constraints: unknown }>;
}

const variantKey = (feature: string, environment: string) => `${feature}\u0000${environment}`;
const strategyId = (c: StoredChange) => String(c.payload.id ?? '');
const segmentId = (c: StoredChange) => Number(c.payload.id);
const isStrategyChange = (c: StoredChange) => c.action === 'updateStrategy' || c.action === 'deleteStrategy';
const isSegmentChange = (c: StoredChange) => c.action === 'updateSegment' || c.action === 'deleteSegment';

/** A strategy as a change relies on it (its order is left out: reordering does not make an update stale). */
const strategyShape = (s: FeatureStrategy) => ({
  name: s.name, title: s.title, disabled: s.disabled, parameters: s.parameters, constraints: s.constraints, variants: s.variants, segments: s.segments,
});

/** Runs the reads at once, or one after the other inside a transaction (whose one connection cannot run two). */
async function inTurn<T extends readonly unknown[]>(em: EntityManager, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (!em.isInTransaction()) return Promise.all(reads.map((r) => r())) as unknown as Promise<T>;
  const out: unknown[] = [];
  for (const read of reads) out.push(await read());
  return out as unknown as T;
}

async function readTargets(em: EntityManager, items: readonly ChangeInEnvironment[]): Promise<Targets> {
  const features = new Set<string>();
  const strategyIds = new Set<string>();
  const variantPairs = new Map<string, [string, string]>();
  const segmentIds = new Set<number>();
  for (const { environment, change: c } of items) {
    if (c.feature !== null) features.add(c.feature);
    if (c.action === 'addDependency' && typeof c.payload.feature === 'string') features.add(c.payload.feature);
    if (isStrategyChange(c)) strategyIds.add(strategyId(c));
    if (c.action === 'reorderStrategy') for (const o of c.payload as unknown as Array<{ id: string }>) strategyIds.add(o.id);
    if (c.action === 'patchVariant' && c.feature !== null) variantPairs.set(variantKey(c.feature, environment), [c.feature, environment]);
    if (isSegmentChange(c)) segmentIds.add(segmentId(c));
  }
  // Inside a transaction the statements share its one connection: run them one after the other (the driver refuses
  // to queue them itself); outside, each may take its own connection.
  const [featureRows, strategies, variantRows, segmentRows] = await inTurn(em, [
    async () => features.size === 0 ? [] : em.execute('select name, project, archived_at is not null as archived from features where name in (?)', [[...features]]) as Promise<Array<{ name: string; project: string; archived: boolean }>>,
    async () => new FeatureReadModel(em).strategiesById([...strategyIds]),
    async () => variantPairs.size === 0 ? [] : em.execute(
      `select fe.feature_name, fe.environment, fe.variants from feature_environments fe
        join jsonb_to_recordset(?::jsonb) as k(feature text, environment text) on k.feature = fe.feature_name and k.environment = fe.environment`,
      [JSON.stringify([...variantPairs.values()].map(([feature, environment]) => ({ feature, environment })))]) as Promise<Array<{ feature_name: string; environment: string; variants: FeatureVariant[] | null }>>,
    async () => segmentIds.size === 0 ? [] : em.execute('select id, name, description, project, constraints from segments where id in (?)', [[...segmentIds]]) as Promise<Array<{ id: number; name: string; description: string | null; project: string | null; constraints: unknown }>>,
  ]);
  return {
    features: new Map(featureRows.map((f) => [f.name, { project: f.project, archived: f.archived }])),
    strategies,
    variants: new Map(variantRows.map((v) => [variantKey(v.feature_name, v.environment), v.variants ?? []])),
    segments: new Map(segmentRows.map((s) => [s.id, { name: s.name, description: s.description, project: s.project, constraints: s.constraints }])),
  };
}

/** What a change's target looks like in `t`: recorded with the change, compared later to find conflicts. */
function targetShape(t: Targets, environment: string, c: StoredChange): unknown {
  if (isStrategyChange(c)) {
    const s = t.strategies.get(strategyId(c));
    return s ? strategyShape(s) : null;
  }
  if (c.action === 'patchVariant' && c.feature !== null) return { variants: t.variants.get(variantKey(c.feature, environment)) ?? [] };
  if (isSegmentChange(c)) return t.segments.get(segmentId(c)) ?? null;
  return null;
}

/** The snapshot of each change's target, taken when it is proposed or edited (in the same transaction). */
export async function snapshotsOf(em: EntityManager, items: readonly ChangeInEnvironment[]): Promise<unknown[]> {
  const targets = await readTargets(em, items);
  return items.map(({ environment, change: c }) => targetShape(targets, environment, c));
}

export interface ConflictReport {
  /** By feature name: the feature itself is gone, archived or in another project. */
  features: Map<string, string>;
  /** By change id: what the change relies on was deleted or changed since it was made. */
  changes: Map<number, string>;
}

/**
 * Conflicts of open requests' changes (all of one project): the feature, strategy, variants or segment a change
 * relies on vanished or changed since the change was made (or last edited). Four statements at most, whatever the
 * number of changes.
 */
export async function findConflicts(em: EntityManager, project: string, items: readonly ChangeInEnvironment[]): Promise<ConflictReport> {
  const out: ConflictReport = { features: new Map(), changes: new Map() };
  if (items.length === 0) return out;
  const t = await readTargets(em, items);
  const featureProblem = (name: string): string | undefined => {
    const f = t.features.get(name);
    if (!f) return `The feature ${name} no longer exists.`;
    if (f.archived) return `The feature ${name} was archived after this change was made.`;
    if (f.project !== project) return `The feature ${name} was moved to project ${f.project}.`;
    return undefined;
  };
  for (const { environment, change: c } of items) {
    if (c.feature !== null) {
      const problem = featureProblem(c.feature);
      if (problem) {
        out.features.set(c.feature, problem);
        continue;
      }
    }
    let problem: string | undefined;
    if (isStrategyChange(c)) {
      const s = t.strategies.get(strategyId(c));
      if (!s || s.featureName !== c.feature || s.environment !== environment) problem = `The strategy ${strategyId(c)} was deleted after this change was made.`;
      else if (c.snapshot !== null && !sameJson(c.snapshot, strategyShape(s))) problem = `The strategy ${strategyId(c)} was changed after this change was made.`;
    } else if (c.action === 'reorderStrategy') {
      const gone = (c.payload as unknown as Array<{ id: string }>).find((o) => {
        const s = t.strategies.get(o.id);
        return !s || s.featureName !== c.feature || s.environment !== environment;
      });
      if (gone) problem = `The strategy ${gone.id} was deleted after this change was made.`;
    } else if (c.action === 'patchVariant') {
      if (c.snapshot !== null && !sameJson(c.snapshot, targetShape(t, environment, c))) problem = `The variants of ${c.feature} in ${environment} were changed after this change was made.`;
    } else if (c.action === 'addDependency') {
      const parent = String(c.payload.feature);
      if (featureProblem(parent)) problem = `The parent feature ${parent} no longer exists, was archived or was moved to another project.`;
    } else if (isSegmentChange(c)) {
      const now = t.segments.get(segmentId(c));
      if (!now) problem = `The segment ${segmentId(c)} was deleted after this change was made.`;
      else if (c.snapshot !== null && !sameJson(c.snapshot, now)) problem = `The segment ${segmentId(c)} was changed after this change was made.`;
    }
    if (problem) out.changes.set(c.id, problem);
  }
  return out;
}

/**
 * The order changes are applied in: every change but switching on or off and archiving in the order they were made;
 * then switching on or off (so a strategy added by the same request counts, and no default strategy is added next to
 * it); archiving last (a feature archived first could not take the request's other changes), all archived features
 * together (a parent may go with the children that depend on it).
 */
const PHASE: ReadonlyMap<string, number> = new Map([['updateEnabled', 1], ['archiveFeature', 2]]);
export function applyOrder<T extends StoredChange>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => (PHASE.get(a.action) ?? 0) - (PHASE.get(b.action) ?? 0) || a.id - b.id);
}

/**
 * Applies every change of a request inside the caller's transaction (`tx`, the transaction of a `change()`: each
 * service call below joins it), through the services of direct edits, so each writes its usual events. The features
 * the changes touch are locked first, then the conflicts are looked for: any conflict refuses the whole request
 * (409 ConflictError) before anything is written. A change that fails (a strategy type deleted meanwhile, a segment
 * still in use) fails the whole request, naming the change.
 */
export async function applyChangeRequest(
  tx: EntityManager, principal: Principal, request: { id: number; project: string; environment: string }, base: AccessService,
): Promise<void> {
  const changes: StoredChange[] = await tx.execute(
    'select id, feature, action, payload, snapshot from change_request_changes where change_request_id = ? order by id', [request.id]);
  const features = new Set<string>();
  for (const c of changes) {
    if (c.feature !== null) features.add(c.feature);
    if (c.action === 'addDependency' && typeof c.payload.feature === 'string') features.add(c.payload.feature);
  }
  await lockFeatures(tx, [...features].sort());
  const conflicts = await findConflicts(tx, request.project, changes.map((change) => ({ environment: request.environment, change })));
  const first = [...conflicts.features.values(), ...conflicts.changes.values()];
  if (first.length > 0) {
    throw new ConflictError(`Change request ${request.id} cannot be applied: ${first.length === 1 ? first[0] : `${first.length} of its changes conflict with changes made since (${first[0]} …)`} Edit or discard the conflicting changes first.`);
  }
  const access = new ApplyingAccess(tx, principal, base, request);
  await access.check('APPLY_CHANGE_REQUEST', request);
  const strategies = new FeatureStrategyService(tx, principal, access);
  const featureService = new FeatureService(tx, principal, access);
  const segments = new SegmentService(tx, principal, access);
  const { project, environment } = request;
  const archived: StoredChange[] = [];
  for (const c of applyOrder(changes)) {
    const feature = c.feature ?? '';
    const p = c.payload;
    try {
      switch (c.action) {
        case 'updateEnabled':
          await strategies.setEnabled(project, feature, environment, p.enabled === true,
            p.shouldActivateDisabledStrategies === undefined ? {} : { shouldActivateDisabledStrategies: p.shouldActivateDisabledStrategies });
          break;
        case 'addStrategy':
          await strategies.add(project, feature, environment, p as never);
          break;
        case 'updateStrategy':
          await strategies.update(project, feature, environment, strategyId(c), p);
          break;
        case 'deleteStrategy':
          await strategies.remove(project, feature, environment, strategyId(c));
          break;
        case 'reorderStrategy':
          await strategies.setSortOrder(project, feature, environment, p);
          break;
        case 'patchVariant':
          await strategies.setEnvironmentVariants(project, feature, environment, p.variants);
          break;
        case 'archiveFeature':
          // All of them together, last: a parent may be archived with the children that depend on it.
          archived.push(c);
          break;
        case 'addDependency':
          await featureService.addDependency(project, feature, p);
          break;
        case 'deleteDependency':
          await featureService.removeDependencies(project, feature);
          break;
        case 'updateSegment': {
          const { id, ...rest } = p;
          await segments.update(Number(id), rest as never);
          break;
        }
        case 'deleteSegment':
          await segments.remove(segmentId(c));
          break;
        default:
          throw new ConflictError(`Change ${c.id} has an action this service does not know (${c.action}).`);
      }
    } catch (err) {
      if (err instanceof DomainError) {
        err.message = `Change ${c.id} (${c.action}${c.feature !== null ? ` of ${c.feature}` : ''}) could not be applied: ${err.message}`;
      }
      throw err;
    }
  }
  if (archived.length > 0) {
    try {
      await featureService.archiveMany(project, { features: archived.map((c) => c.feature ?? '') });
    } catch (err) {
      if (err instanceof DomainError) err.message = `Change${archived.length > 1 ? 's' : ''} ${archived.map((c) => c.id).join(', ')} (archiveFeature) could not be applied: ${err.message}`;
      throw err;
    }
  }
}

/** A background change the request's apply would make to avoid an invalid state (the spec's `defaultChange`). */
export interface DefaultChange {
  action: string;
  payload: Record<string, unknown>;
}

/**
 * The background change applying a request would make for each of its features, by `<request id>\0<feature>`:
 * - switching a feature on in an environment with no active strategy adds the project environment's default strategy
 *   (or a 100 % gradual rollout), unless the change asks to re-activate the disabled ones: `addStrategy`;
 * - removing or disabling the last active strategy of an enabled environment switches it off: `updateEnabled false`.
 * Simulated over the environment's current strategies in the order the request would be applied (`applyOrder`).
 */
export async function defaultChanges(
  em: EntityManager, project: string, requests: ReadonlyArray<{ id: number; environment: string; changes: readonly StoredChange[] }>,
): Promise<Map<string, DefaultChange>> {
  const out = new Map<string, DefaultChange>();
  const relevant = (c: StoredChange) => c.feature !== null && (c.action === 'updateEnabled' || isStrategyChange(c) || c.action === 'addStrategy');
  const pairs = new Map<string, { feature: string; environment: string }>();
  for (const r of requests) {
    for (const c of r.changes) if (relevant(c)) pairs.set(variantKey(c.feature as string, r.environment), { feature: c.feature as string, environment: r.environment });
  }
  if (pairs.size === 0) return out;
  const rows: Array<{ feature: string; environment: string; enabled: boolean | null; strategies: Array<{ id: string; disabled: boolean }> }> = await em.execute(
    `select k.feature, k.environment, fe.enabled,
            coalesce((select json_agg(json_build_object('id', fs.id, 'disabled', fs.disabled)) from feature_strategies fs
                       where fs.feature_name = k.feature and fs.environment = k.environment), '[]') as strategies
       from jsonb_to_recordset(?::jsonb) as k(feature text, environment text)
       left join feature_environments fe on fe.feature_name = k.feature and fe.environment = k.environment`,
    [JSON.stringify([...pairs.values()])]);
  const current = new Map(rows.map((r) => [variantKey(r.feature, r.environment), r]));
  let settings: Awaited<ReturnType<typeof defaultStrategySettings>> | undefined;
  for (const r of requests) {
    const byFeature = new Map<string, StoredChange[]>();
    for (const c of applyOrder(r.changes)) {
      if (!relevant(c)) continue;
      byFeature.set(c.feature as string, [...(byFeature.get(c.feature as string) ?? []), c]);
    }
    for (const [feature, changes] of byFeature) {
      const now = current.get(variantKey(feature, r.environment));
      let enabled = now?.enabled ?? false;
      const strategies = new Map((now?.strategies ?? []).map((s) => [s.id, s.disabled]));
      const active = () => [...strategies.values()].some((disabled) => !disabled);
      let switchedOff = false;
      let addsDefault = false;
      let switchedExplicitly = false;
      for (const c of changes) {
        const p = c.payload;
        if (c.action === 'addStrategy') strategies.set(`new:${c.id}`, p.disabled === true);
        else if (c.action === 'updateStrategy') {
          if (p.disabled !== undefined) strategies.set(strategyId(c), p.disabled === true);
        } else if (c.action === 'deleteStrategy') strategies.delete(strategyId(c));
        else if (c.action === 'updateEnabled') {
          switchedExplicitly = true;
          if (p.enabled === true && !active()) {
            if (p.shouldActivateDisabledStrategies === true && strategies.size > 0) for (const id of strategies.keys()) strategies.set(id, false);
            else {
              addsDefault = true;
              strategies.set('default', false);
            }
          }
          enabled = p.enabled === true;
          continue;
        }
        // Only updating and removing strategies switch an environment off (as the direct edits do).
        if (c.action !== 'addStrategy' && enabled && !active()) {
          enabled = false;
          switchedOff = true;
        }
      }
      if (addsDefault) {
        settings ??= await defaultStrategySettings(em, project, [...new Set(requests.map((q) => q.environment))]);
        out.set(`${r.id}\u0000${feature}`, { action: 'addStrategy', payload: { ...defaultStrategyFrom(settings.get(r.environment), feature) } });
      } else if (switchedOff && !switchedExplicitly) {
        out.set(`${r.id}\u0000${feature}`, { action: 'updateEnabled', payload: { enabled: false } });
      }
    }
  }
  return out;
}
