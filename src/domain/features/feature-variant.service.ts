import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import type { EventInput } from '../events/event.store';
import { parse, sameJson } from '../validation';
import { assertProjectEnvironment, loadProjectFeature } from './feature.store';
import { batchVariantsSchema } from './feature-strategy.schemas';
import { lockEnvironmentVariants, variantsByEnvironment, writeEnvironmentVariants, writeVariantsEverywhere } from './feature-variant.store';
import { applyJsonPatch } from './json-patch';
import { featureVariantsSchema, toFeatureVariants } from './variants';
import type { FeatureVariant } from './variant.shapes';

/** A feature's variants in its environments (and the legacy feature-level variants, which are those of every environment). */
export class FeatureVariantService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

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
      const envs = await variantsByEnvironment(tx, feature);
      const before = envs.find((e) => (e.variants ?? []).length > 0)?.variants ?? [];
      const variants = toFeatureVariants(parse(featureVariantsSchema, patch ? applyJsonPatch(before, input) : input), '');
      await writeVariantsEverywhere(tx, feature, variants);
      if (!sameJson(before, variants) || envs.some((e) => !sameJson(e.variants ?? [], variants))) {
        emit({ type: 'feature-variants-updated', project, featureName: feature, data: { variants }, preData: { variants: before } });
      }
      return variants;
    });
  }

  private async writeVariants(
    tx: EntityManager, emit: (e: EventInput) => void, project: string, feature: string, environment: string,
    next: (current: FeatureVariant[]) => FeatureVariant[],
  ): Promise<FeatureVariant[]> {
    const before = await lockEnvironmentVariants(tx, feature, environment);
    const variants = next(before);
    if (sameJson(before, variants)) return variants;
    await writeEnvironmentVariants(tx, feature, environment, variants);
    emit({ type: 'feature-environment-variants-updated', project, environment, featureName: feature, data: { variants }, preData: { variants: before } });
    return variants;
  }
}
