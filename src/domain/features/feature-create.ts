import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventInput } from '../events/event.store';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { checkFeatureName } from '../projects/feature-naming';
import { FeatureReadModel, toFeatureSummary, type FeatureEnvironmentDbRow } from './feature.read-model';
import type { FeatureSummary } from './feature.shapes';
import { checkAndInsertFeature, countActiveFeaturesForLimit, featureEventData, insertFeatureRows, nameTaken } from './feature.store';

/** The rules of a new feature's row, which creating a feature and cloning one share. */

/** A name is free when no feature, active or archived, has it (409 otherwise, saying which). */
export async function assertNameFree(em: EntityManager, name: string): Promise<void> {
  const taken = await nameTaken(em, name);
  if (taken) throw new NameExistsError(taken.archived ? 'An archived toggle with that name already exists' : 'A toggle with that name already exists');
}

/** The type must be one of the feature types (400 listing them otherwise). */
export async function assertFeatureType(em: EntityManager, type: string): Promise<void> {
  const types = await new FeatureReadModel(em).featureTypes();
  if (!types.some((t) => t.id === type)) {
    throw ValidationError.single('type', `The \`type\` property must be one of the feature types: ${types.map((t) => JSON.stringify(t.id)).join(', ')}. You sent ${JSON.stringify(type)}.`);
  }
}

/**
 * Creates the feature row and its (disabled) configuration in every environment of the project, returning both.
 * Event feature-created.
 */
export async function insertFeature(
  tx: EntityManager, emit: (e: EventInput) => void, userId: number | null, project: string,
  data: { name: string; type?: string; description?: string | null; impressionData?: boolean; stale: boolean },
): Promise<{ summary: FeatureSummary; environments: FeatureEnvironmentDbRow[] }> {
  const type = data.type ?? 'release';
  const values = [data.name, project, type, data.description ?? null, data.stale, data.impressionData ?? false, new Date(), userId];
  // One statement reads the project shared (its naming rules, feature limit and environment links stay as read until
  // the feature is in), whether the name is taken and whether the type exists, and inserts the feature when nothing
  // there refuses it and the project has no limit. The rules are then judged in their documented order; one that
  // refuses throws, which rolls the insert back with the transaction.
  const row = await checkAndInsertFeature(tx, project, type, values);
  if (!row) throw new NotFoundError(`Project with id ${project} does not exist`);
  if (row.name_taken !== null) throw new NameExistsError(row.name_taken ? 'An archived toggle with that name already exists' : 'A toggle with that name already exists');
  checkFeatureName({ pattern: row.feature_naming_pattern, example: row.feature_naming_example, description: row.feature_naming_description }, data.name);
  if (!row.type_known) await assertFeatureType(tx, type);
  let inserted = row.inserted;
  if (row.feature_limit !== null) {
    // Count-then-insert: creates in a limited project take turns (an advisory lock, since the project row is only
    // shared), or concurrent ones would all see room for one more. The count runs after the lock is granted, so it
    // sees every feature created by the ones before.
    const count = await countActiveFeaturesForLimit(tx, project);
    if (count >= row.feature_limit) throw new InvalidOperationError('You have reached the maximum number of feature toggles for this project.');
    inserted = await insertFeatureRows(tx, values);
  }
  // `on conflict do nothing`: a concurrent create of the same name waits for the other transaction and then
  // inserts nothing, so the loser gets the 409 instead of a unique-violation 500.
  if (!inserted) {
    await assertNameFree(tx, data.name); // throws with the active/archived message
    throw new NameExistsError('A toggle with that name already exists');
  }
  const summary = toFeatureSummary(inserted);
  emit({ type: 'feature-created', project, featureName: data.name, data: featureEventData(summary) });
  return { summary, environments: inserted.environments };
}
