import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import { InvalidOperationError, NotFoundError } from '../errors';
import { parse } from '../validation';
import { FeatureReadModel } from './feature.read-model';
import type { ArchivedFeature, FeatureSummary } from './feature.shapes';
import { namesSchema } from './feature.schemas';
import { featureEventData, loadFeature, loadProjectFeature, lockFeatures } from './feature.store';
import {
  activeDependentsOutside, archiveFeatureRows, deleteDependenciesOfChildren, deleteFeatureRows, dependentsOutside, reviveFeatureRows,
} from './feature-archive.store';

/**
 * The archive: archiving features (they stop answering SDKs and leave the lists, keeping their configuration), bringing
 * them back switched off, and deleting archived ones for good. Every change locks the features first, by name.
 */
export class FeatureArchiveService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /**
   * Archived features, optionally of one project (an unknown project gives an empty list), each with the environments
   * it was last seen in (`{name, lastSeenAt, enabled: false}`), as Unleash lists them.
   */
  async listArchived(project?: string): Promise<ArchivedFeature[]> {
    const read = new FeatureReadModel(this.em);
    const features = await read.summaries({ project, archived: true });
    const seen = await read.lastSeen(features.map((f) => f.name));
    return features.map((f) => ({
      ...f,
      environments: (seen.get(f.name) ?? []).map((r) => ({ name: r.environment, lastSeenAt: r.lastSeenAt, enabled: false as const })),
    }));
  }

  /** DELETE on a project feature: archives it (202). A feature other active features depend on cannot be archived. */
  async archive(project: string, name: string): Promise<void> {
    await this.archiveMany(project, { features: [name] });
  }

  async archiveMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('DELETE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      for (const name of names) await loadProjectFeature(tx, project, name, true);
      const blocking = await activeDependentsOutside(tx, names);
      if (blocking.length > 0) {
        throw new InvalidOperationError(`You can not archive ${blocking[0].parent}: other features depend on it (${[...new Set(blocking.map((b) => b.child))].join(', ')}). Remove those dependencies or archive the dependent features too.`);
      }
      const unlinked = await deleteDependenciesOfChildren(tx, names);
      await archiveFeatureRows(tx, names);
      for (const name of names) {
        if (unlinked.includes(name)) emit({ type: 'feature-dependencies-removed', project, featureName: name });
        emit({ type: 'feature-archived', project, featureName: name });
      }
    });
  }

  /** Brings an archived feature back, switched off in every environment (reviving never silently turns anything on). */
  async revive(name: string): Promise<void> {
    const feature = await loadFeature(this.em, name, { archived: true });
    await this.reviveMany(feature.project, { features: [name] });
  }

  async reviveMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('UPDATE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      for (const name of names) {
        const f = await loadFeature(tx, name, { archived: true, lock: true });
        if (f.project !== project) throw new NotFoundError(`There's no archived feature named "${name}" in project "${project}".`);
      }
      await reviveFeatureRows(tx, names);
      for (const name of names) emit({ type: 'feature-revived', project, featureName: name });
    });
  }

  /** Deletes an archived feature for good (DELETE_FEATURE); its strategies, tags and configuration go with it. */
  async deleteArchived(name: string): Promise<void> {
    const feature = await loadFeature(this.em, name);
    await this.deleteMany(feature.project, { features: [name] });
  }

  async deleteMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('DELETE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      const found: FeatureSummary[] = [];
      for (const name of names) {
        const f = await loadFeature(tx, name, { lock: true });
        if (f.project !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
        if (!f.archived) throw new InvalidOperationError(`The feature ${name} must be archived before it can be deleted.`);
        found.push(f);
      }
      const tags = await new FeatureReadModel(tx).tags(names);
      const stillUsed = await dependentsOutside(tx, names);
      if (stillUsed.length > 0) throw new InvalidOperationError(`You can not delete ${stillUsed[0].parent}: the feature ${stillUsed[0].child} depends on it.`);
      // Events first: they read the feature's tags, which go with the feature.
      for (const f of found) emit({ type: 'feature-deleted', project, featureName: f.name, preData: featureEventData(f), tags: tags.get(f.name) ?? [] });
      await deleteFeatureRows(tx, names);
    });
  }
}
