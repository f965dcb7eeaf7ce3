import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { lockChangeRequestEnvironments } from '../change-requests/change-request-config.store';
import type { ChangeRequestService } from '../change-requests/change-request.service';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { FeatureMoveService } from '../features/feature-move.service';
import type { FeatureStrategyService } from '../features/feature-strategy.service';
import type { StrategyInput } from '../features/feature-strategy.schemas';
import type { FeatureService } from '../features/feature.service';
import { lockFeatures } from '../features/feature.store';
import { parse } from '../validation';
import { rowId } from '../validation';
import { HistoryReadModel } from './history.read-model';
import { diffStates, pointerSegment, valueAt, withValueAt, type DiffEntry } from './version-diff';
import { planRevert, type RevertStep } from './revert-plan';
import { currentState, loadEventForRevert, projectOf, refuseWhatIsGone, type RevertedEvent } from './revert.store';

export const revertSchema = z.object({
  version: z.number().int().min(1).max(2_147_483_647).describe('The version to bring the flag back to'),
  environments: z.array(z.string().min(1).max(100)).min(1).max(100).optional()
    .describe('Only these environments’ configuration (default: the whole flag)'),
}).strict();

/** The services a revert makes its changes through, on the revert's transaction. */
export interface RevertWriters {
  features: FeatureService;
  featureStrategies: FeatureStrategyService;
  featureMoves: FeatureMoveService;
  changeRequests: ChangeRequestService;
}

export interface RevertResult {
  version: number;
  /** The changes made directly, in order. */
  changes: RevertStep[];
  /** The drafts made for environments under change requests, with the changes each holds. */
  drafts: Array<{ environment: string; changeRequestId: number; changes: RevertStep[] }>;
}

/** The parts of a flag's diff an event is about: its environment's (its strategy's, for a strategy event), or the flag's own fields. */
function inScope(event: RevertedEvent): (e: DiffEntry) => boolean {
  if (event.environment === null) return (e) => !e.path.startsWith('/environments/');
  let prefix = `/environments/${pointerSegment(event.environment)}`;
  if (event.strategyId) prefix += `/strategies/${event.strategyId}`;
  return (e) => e.path === prefix || e.path.startsWith(`${prefix}/`);
}

/** Change-request actions of the steps a draft can hold (per environment). */
const DRAFTABLE = new Set<RevertStep['action']>(['addStrategy', 'updateStrategy', 'deleteStrategy', 'updateEnabled', 'patchVariant']);

/**
 * Bringing a flag (or some of its environments) back to a version (issue 43). The changes are computed from the
 * flag's state now to the version's (revert-plan.ts) and made through the services of ordinary edits, in one
 * transaction: each checks its permission (a refusal is the 403 of that edit, and nothing is changed), writes its
 * usual event, marked `revertOf` the version, and SDKs get the result as a delta. An environment with change requests
 * enabled gets a draft holding its changes instead (for every caller: a revert is exactly what a second pair of eyes
 * is for). A flag archived or deleted since is revived or created again; a version that needs something deleted since
 * is a 409 naming it.
 */
export class RevertService {
  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly writersOn: (tx: EntityManager) => RevertWriters,
  ) {}

  async revert(project: string, name: string, input: unknown): Promise<RevertResult> {
    const { version, environments } = parse(revertSchema, input);
    return change(this.em, this.principal, async (tx) => {
      // Lock order (change.ts rule 3): the project's change-request settings, then the flag.
      const guarded = new Set(await lockChangeRequestEnvironments(tx, project));
      await lockFeatures(tx, [name]);
      if ((await projectOf(tx, name)) !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
      const row = await new HistoryReadModel(tx).version(name, version);
      if (!row) throw new NotFoundError(`The feature ${name} has no version ${version}.`);
      if (!row.state) throw ValidationError.single('version', `Version ${version} of ${name} records its deletion: delete the flag instead.`);
      const steps = planRevert(await currentState(tx, name), row.state, environments && new Set(environments));
      await refuseWhatIsGone(tx, name, version, steps);
      return this.apply(tx, name, version, steps, guarded);
    }, { revertOf: { featureName: name, version } });
  }

  /**
   * Undoes the change one audit event made to its flag (`POST /api/admin/events/:id/revert`), when nothing touched the
   * same thing since (else a 409 naming each path changed since): what the event changed is taken from the version its
   * transaction recorded and the one before, narrowed to the event's environment (and strategy); the rest of the flag
   * stays as it is now.
   */
  async revertEvent(id: string | number): Promise<RevertResult> {
    const eventId = rowId(id);
    if (eventId === undefined) throw new NotFoundError(`Could not find an event with id ${id}.`);
    const preview = await loadEventForRevert(this.em, eventId);
    // The version brought back is known once the event's version is read; its events are written after that.
    const cause = { revertOf: { featureName: preview.featureName, version: 0, eventId } };
    return change(this.em, this.principal, async (tx) => {
      const guarded = new Set(await lockChangeRequestEnvironments(tx, preview.project));
      await lockFeatures(tx, [preview.featureName]);
      const event = await loadEventForRevert(tx, eventId);
      const read = new HistoryReadModel(tx);
      const made = await read.versionOfTransaction(event.featureName, event.txid);
      if (!made) throw ValidationError.single('id', `Event ${eventId} changed nothing of ${event.featureName}'s configuration: there is nothing to revert.`);
      cause.revertOf.version = made.version - 1;
      const before = made.version > 1 ? (await read.version(event.featureName, made.version - 1))?.state ?? null : null;
      const entries = diffStates(before, made.state).filter(inScope(event));
      if (entries.length === 0) throw ValidationError.single('id', `Event ${eventId} changed nothing of ${event.featureName}'s configuration: there is nothing to revert.`);
      if (entries.some((e) => e.path === '')) {
        throw ValidationError.single('id', `Event ${eventId} ${made.state === null ? 'deleted' : 'created'} ${event.featureName}: revert to a version of the flag instead.`);
      }
      const current = await currentState(tx, event.featureName);
      if (current === null) throw new ConflictError(`${event.featureName} was deleted since event ${eventId}: revert to a version of the flag instead.`);
      const changedSince = entries.filter((e) => JSON.stringify(valueAt(current, e.path)) !== JSON.stringify(e.after)).map((e) => e.path);
      if (changedSince.length > 0) {
        throw new ConflictError(`${event.featureName} changed since event ${eventId} where it would be reverted: ${changedSince.join(', ')}. Revert to a version of the flag instead.`);
      }
      const target = entries.reduce((state, e) => withValueAt(state, e.path, e.before), current);
      const steps = planRevert(current, target);
      await refuseWhatIsGone(tx, event.featureName, made.version - 1, steps);
      return this.apply(tx, event.featureName, made.version - 1, steps, guarded);
    }, cause);
  }

  private async apply(tx: EntityManager, name: string, version: number, steps: RevertStep[], guarded: ReadonlySet<string>): Promise<RevertResult> {
    const writers = this.writersOn(tx);
    const result: RevertResult = { version, changes: [], drafts: [] };
    const drafted = new Map<string, RevertStep[]>();
    let project = '';
    for (const step of steps) {
      if ('environment' in step && DRAFTABLE.has(step.action) && guarded.has(step.environment)) {
        let list = drafted.get(step.environment);
        if (!list) drafted.set(step.environment, (list = []));
        list.push(step);
        continue;
      }
      project = await this.make(writers, name, step, project || (await projectOf(tx, name))!);
      result.changes.push(step);
    }
    project ||= (await projectOf(tx, name))!;
    for (const [environment, list] of drafted) {
      const draft = await writers.changeRequests.addChanges(project, environment, list.map((s) => ({ action: s.action, feature: name, payload: 'payload' in s ? s.payload : {} })));
      result.drafts.push({ environment, changeRequestId: draft.id, changes: list });
    }
    return result;
  }

  /** Makes one step through its service; returns the project the flag is in afterwards. */
  private async make(w: RevertWriters, name: string, step: RevertStep, project: string): Promise<string> {
    switch (step.action) {
      case 'createFeature': await w.features.create(step.project, step.payload); return step.project;
      case 'reviveFeature': await w.features.revive(name); return project;
      case 'moveFeature': await w.featureMoves.move(step.from, name, { newProjectId: step.to }); return step.to;
      case 'updateFeature': await w.features.update(project, name, step.payload); return project;
      case 'addTag': await w.features.addTag(name, step.payload); return project;
      case 'removeTag': await w.features.removeTag(name, step.payload.type, step.payload.value); return project;
      case 'addDependency': await w.features.addDependency(project, name, step.payload); return project;
      case 'deleteDependency': await w.features.removeDependency(project, name, step.payload.feature); return project;
      case 'addStrategy': await w.featureStrategies.add(project, name, step.environment, step.payload as StrategyInput); return project;
      case 'updateStrategy': {
        const { id, ...body } = step.payload;
        await w.featureStrategies.update(project, name, step.environment, id, body);
        return project;
      }
      case 'deleteStrategy': await w.featureStrategies.remove(project, name, step.environment, step.payload.id); return project;
      case 'updateEnabled': await w.featureStrategies.setEnabled(project, name, step.environment, step.payload.enabled); return project;
      case 'patchVariant': await w.featureStrategies.setEnvironmentVariants(project, name, step.environment, step.payload.variants); return project;
      case 'archiveFeature': await w.features.archive(project, name); return project;
    }
  }
}
