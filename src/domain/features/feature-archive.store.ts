import type { EntityManager } from '@mikro-orm/postgresql';
import type { DependencyLink } from './feature.read-model';

/** The SQL of archiving, reviving and deleting features (feature-archive.service.ts says what each rule is for). */

/** Dependencies of active features outside `names` on features in `names` (by parent, then child): they block archiving. */
export async function activeDependentsOutside(tx: EntityManager, names: string[]): Promise<DependencyLink[]> {
  return tx.execute(
    `select d.parent, d.child from feature_dependencies d join features c on c.name = d.child
      where d.parent in (?) and c.archived_at is null and d.child not in (?) order by d.parent, d.child`, [names, names]);
}

/** Removes the parent dependencies of the features; returns the child of each one removed. */
export async function deleteDependenciesOfChildren(tx: EntityManager, names: string[]): Promise<string[]> {
  const rows: Array<Pick<DependencyLink, 'child'>> = await tx.execute(`delete from feature_dependencies where child in (?) returning child`, [names]);
  return rows.map((r) => r.child);
}

export async function archiveFeatureRows(tx: EntityManager, names: string[]): Promise<void> {
  await tx.execute(`update features set archived_at = now() where name in (?)`, [names]);
}

/** Brings the features back, switched off in every environment. */
export async function reviveFeatureRows(tx: EntityManager, names: string[]): Promise<void> {
  await tx.execute(`update features set archived_at = null where name in (?)`, [names]);
  await tx.execute(`update feature_environments set enabled = false where feature_name in (?)`, [names]);
}

/** Dependencies of features outside `names` on features in `names` (by parent): they block deleting. */
export async function dependentsOutside(tx: EntityManager, names: string[]): Promise<DependencyLink[]> {
  return tx.execute(`select parent, child from feature_dependencies where parent in (?) and child not in (?) order by parent`, [names, names]);
}

/** Deletes the features for good; their strategies, tags and configuration go with them (foreign keys cascade). */
export async function deleteFeatureRows(tx: EntityManager, names: string[]): Promise<void> {
  await tx.execute(`delete from features where name in (?)`, [names]);
}
