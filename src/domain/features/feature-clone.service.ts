import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseCloneIntoChangeRequestProject } from '../change-requests/change-request-guard';
import { change } from '../change';
import { ValidationError } from '../errors';
import { loadProject } from '../projects/project.store';
import { parse } from '../validation';
import { assertNameFree, insertFeature } from './feature-create';
import { FeatureReadModel } from './feature.read-model';
import type { Feature } from './feature.shapes';
import { cloneSchema } from './feature.schemas';
import { loadFeature } from './feature.store';
import {
  copiedParts, copyEnvironmentVariants, environmentVariantRows, insertDependency, parentProject, projectEnvironmentNames, segmentsOfOtherProjects,
} from './feature-clone.store';
import { insertStrategy, strategyEventData } from './feature-strategy.store';

/** Cloning a feature (spec endpoint 5 / D3): a new feature with the source's metadata, variants, strategies and dependencies. */
export class FeatureCloneService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** The source is looked up in any project; the copy goes into `project`. */
  async clone(project: string, source: string, input: unknown): Promise<Feature> {
    const { name, replaceGroupId } = parse(cloneSchema, input);
    await this.access.check('CREATE_FEATURE', { project });
    // The copy creates strategies and dependencies too: the caller needs the permissions adding them directly would need.
    for (const c of await copiedParts(this.em, source)) {
      if (c.dependency) await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
      else await this.access.check('CREATE_FEATURE_STRATEGY', { project, environment: c.environment as string });
    }
    const created = await change(this.em, this.principal, async (tx, emit) => {
      await assertNameFree(tx, name);
      // The target project first, then the source, shared (rule 3 in change.ts): the copy is of one state of the
      // source, since every change of it waits until the copy is done.
      await loadProject(tx, project, 'share');
      await refuseCloneIntoChangeRequestProject(tx, project);
      const original = await loadFeature(tx, source, { archived: false, lock: 'share' });
      const { summary } = await insertFeature(tx, emit, this.principal.userId, project, {
        name, type: original.type, description: original.description, impressionData: original.impressionData, stale: false,
      });
      const targetEnvs = await projectEnvironmentNames(tx, project);
      // Environment variants (copied without an event, as Unleash does), then every strategy with its segments.
      for (const e of await environmentVariantRows(tx, source)) {
        if (!targetEnvs.has(e.environment) || (e.variants ?? []).length === 0) continue;
        await copyEnvironmentVariants(tx, name, e.environment, e.variants);
      }
      const sourceModel = new FeatureReadModel(tx);
      const strategies = [...(await sourceModel.strategies([source])).entries()]
        .map(([key, list]) => ({ environment: key.split('\u0000')[1], list }));
      // A segment of another project cannot be used in the target project (the rule adding a strategy enforces).
      const segmentIds = [...new Set(strategies.flatMap(({ list }) => list.flatMap((s) => s.segments)))];
      const foreign = segmentIds.length === 0 ? [] : await segmentsOfOtherProjects(tx, segmentIds, project);
      if (foreign.length > 0) {
        throw ValidationError.single('name', `The feature ${source} uses the segment ${foreign[0].id} of project ${foreign[0].project}, which cannot be used in project ${project}.`);
      }
      for (const { environment, list } of strategies) {
        if (!targetEnvs.has(environment)) {
          throw ValidationError.single('name', `The feature ${source} has strategies in the environment "${environment}", which is not enabled in project "${project}".`);
        }
        for (const s of list) {
          const parameters = { ...s.parameters };
          if (replaceGroupId !== false && Object.hasOwn(parameters, 'groupId')) parameters.groupId = name;
          const copy = await insertStrategy(tx, project, environment, { ...s, id: randomUUID(), featureName: name, parameters });
          emit({ type: 'feature-strategy-add', project, environment, featureName: name, data: strategyEventData(copy) });
        }
      }
      // Parent dependencies, when the parent lives in the target project (dependencies never cross projects).
      const deps = (await sourceModel.dependencies([source])).get(source) ?? [];
      for (const d of deps) {
        // The parent must stay until the dependency is in (deleting it waits, then sees the new dependency).
        if ((await parentProject(tx, d.feature)) !== project) continue;
        await insertDependency(tx, d.feature, name, d.enabled, d.variants ?? []);
        emit({ type: 'feature-dependency-added', project, featureName: name, data: d });
      }
      return summary;
    });
    return (await new FeatureReadModel(this.em).features([created]))[0];
  }
}
