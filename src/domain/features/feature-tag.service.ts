import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { parse } from '../validation';
import { FeatureReadModel } from './feature.read-model';
import type { Tag } from '../tags/tag.shapes';
import { tagSchema } from './feature.schemas';
import { loadFeature } from './feature.store';
import { insertTag, linkFeatureTag, lockTagType, unlinkFeatureTag } from './feature-tag.store';

/** The tags of a feature. */
export class FeatureTagService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async tags(name: string): Promise<Tag[]> {
    await loadFeature(this.em, name);
    return (await new FeatureReadModel(this.em).tags([name])).get(name) ?? [];
  }

  /** Tags a feature, creating the tag when it does not exist yet (event tag-created, then feature-tagged). */
  async addTag(name: string, input: unknown): Promise<Tag> {
    const data = parse(tagSchema, input);
    const tag = { type: data.type ?? 'simple', value: data.value };
    const feature = await loadFeature(this.em, name);
    await this.access.check('UPDATE_FEATURE', { project: feature.project });
    return change(this.em, this.principal, async (tx, emit) => {
      // The feature and the tag type must stay until the tag is on (a concurrent delete of either waits).
      await loadFeature(tx, name, { lock: 'key share' });
      if (!(await lockTagType(tx, tag.type))) throw ValidationError.single('type', `Tag type '${tag.type}' does not exist`);
      if (await insertTag(tx, tag.type, tag.value)) emit({ type: 'tag-created', data: tag });
      if (!(await linkFeatureTag(tx, name, tag.type, tag.value, this.principal.userId))) throw new NameExistsError(`The feature ${name} already has the tag ${tag.type}:${tag.value}`);
      emit({ type: 'feature-tagged', project: feature.project, featureName: name, data: tag });
      return tag;
    });
  }

  async removeTag(name: string, type: string, value: string): Promise<void> {
    const feature = await loadFeature(this.em, name);
    await this.access.check('UPDATE_FEATURE', { project: feature.project });
    await change(this.em, this.principal, async (tx, emit) => {
      if (!(await unlinkFeatureTag(tx, name, type, value))) throw new NotFoundError(`The feature ${name} has no tag ${type}:${value}`);
      emit({ type: 'feature-untagged', project: feature.project, featureName: name, preData: { type, value } });
    });
  }
}
