import type { EntityManager } from '@mikro-orm/postgresql';

/** The SQL of feature dependencies (feature-dependency.service.ts says what each rule is for). */

/** Whether the would-be parent depends on anything, and whether anything depends on the would-be child. */
export async function dependencyDepths(tx: EntityManager, parent: string, child: string): Promise<{ parent_has_parents: boolean; child_has_children: boolean }> {
  const [row]: Array<{ parent_has_parents: boolean; child_has_children: boolean }> = await tx.execute(
    `select exists (select 1 from feature_dependencies where child = ?) as parent_has_parents,
                exists (select 1 from feature_dependencies where parent = ?) as child_has_children`, [parent, child]);
  return row;
}

/** Adds the dependency, or replaces what it requires of the parent. */
export async function upsertDependency(tx: EntityManager, parent: string, child: string, enabled: boolean, variants: string[]): Promise<void> {
  await tx.execute(
    `insert into feature_dependencies (parent, child, enabled, variants) values (?, ?, ?, ?::jsonb)
         on conflict (parent, child) do update set enabled = excluded.enabled, variants = excluded.variants`,
    [parent, child, enabled, JSON.stringify(variants)]);
}

/** Removes one dependency; whether there was one. */
export async function deleteDependency(tx: EntityManager, child: string, parent: string): Promise<boolean> {
  const removed = await tx.execute(`delete from feature_dependencies where child = ? and parent = ? returning parent`, [child, parent]);
  return removed.length > 0;
}

/** Removes every parent dependency of the feature; whether there was any. */
export async function deleteDependencies(tx: EntityManager, child: string): Promise<boolean> {
  const removed = await tx.execute(`delete from feature_dependencies where child = ? returning parent`, [child]);
  return removed.length > 0;
}
