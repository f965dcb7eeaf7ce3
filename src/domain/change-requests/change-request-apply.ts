import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessService } from '../access/access.service';
import type { Grant, Scope } from '../access/rbac';
import type { Principal } from '../access/principal';
import { ConflictError, DomainError, NoAccessError } from '../errors';
import { lockFeatures } from '../features/feature.store';
import { FeatureStrategyService } from '../features/feature-strategy.service';
import { FeatureService } from '../features/feature.service';
import { SegmentService } from '../segments/segment.service';
import { applyOrder, segmentId, strategyId, type StoredChange } from './change-request-changes';
import { findConflicts, storedChanges } from './change-request.read-model';

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
  const changes = await storedChanges(tx, request.id);
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
