import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import { InvalidOperationError, NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import { dependencySchema } from './feature.schemas';
import { loadFeature, loadProjectFeature, lockFeatures } from './feature.store';
import { deleteDependencies, deleteDependency, dependencyDepths, upsertDependency } from './feature-dependency.store';

/** A feature's dependencies on parent features (which SDKs evaluate first). */
export class FeatureDependencyService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /**
   * Adds (or replaces) a parent dependency. The parent must be an active feature of the same project; dependencies
   * are one level deep (a parent cannot depend on anything and a child cannot be a parent), so no cycle can form.
   */
  async addDependency(project: string, child: string, input: unknown): Promise<void> {
    const data = parse(dependencySchema, input);
    const enabled = data.enabled ?? true;
    const variants = data.variants ?? [];
    if (!enabled && variants.length > 0) throw ValidationError.single('variants', 'Variants can only be required of a parent that must be enabled (`enabled: true`).');
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      // Lock child and parent: any two concurrent changes that share a feature run one after the other, so the
      // one-level checks below cannot be raced into a chain.
      await lockFeatures(tx, [child, data.feature]);
      await loadProjectFeature(tx, project, child, true);
      if (data.feature === child) throw ValidationError.single('feature', 'A feature cannot depend on itself.');
      const parent = await loadFeature(tx, data.feature, { archived: false }).catch(() => {
        throw ValidationError.single('feature', `The parent feature ${data.feature} does not exist or is archived.`);
      });
      if (parent.project !== project) throw ValidationError.single('feature', `The parent feature ${data.feature} is in project ${parent.project}; dependencies must stay within project ${project}.`);
      const { parent_has_parents, child_has_children } = await dependencyDepths(tx, data.feature, child);
      if (parent_has_parents) throw new InvalidOperationError(`The feature ${data.feature} depends on other features, so it cannot be a parent (dependencies are one level deep).`);
      if (child_has_children) throw new InvalidOperationError(`Other features depend on ${child}, so it cannot depend on another feature (dependencies are one level deep).`);
      await upsertDependency(tx, data.feature, child, enabled, variants);
      emit({ type: 'feature-dependency-added', project, featureName: child, data: { feature: data.feature, enabled, ...(variants.length ? { variants } : {}) } });
    });
  }

  async removeDependency(project: string, child: string, parent: string): Promise<void> {
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      await loadProjectFeature(tx, project, child);
      if (!(await deleteDependency(tx, child, parent))) throw new NotFoundError(`The feature ${child} does not depend on ${parent}`);
      emit({ type: 'feature-dependency-removed', project, featureName: child, data: { feature: parent } });
    });
  }

  async removeDependencies(project: string, child: string): Promise<void> {
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      await loadProjectFeature(tx, project, child);
      if (await deleteDependencies(tx, child)) emit({ type: 'feature-dependencies-removed', project, featureName: child });
    });
  }
}
