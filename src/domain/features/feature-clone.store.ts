import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectEnvironmentRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import type { SegmentSchema } from '../segments/segment.entity';
import type { FeatureEnvironmentRow } from './feature-environment.entity';
import type { FeatureRow } from './feature.entity';

/** The SQL of cloning a feature (feature-clone.service.ts says what each rule is for). */

/**
 * What a copy of the feature would create besides the feature: the environments it has strategies in (`dependency`
 * false), and one row (`environment` null, `dependency` true) per parent dependency; at most 100 rows.
 */
export async function copiedParts(em: EntityManager, source: string): Promise<Array<{ environment: string | null; dependency: boolean }>> {
  return em.execute(
    `select distinct environment, false as dependency from feature_strategies where feature_name = ?
       union all select null, true from feature_dependencies where child = ? limit 100`, [source, source]);
}

/** The names of the environments linked to the project. */
export async function projectEnvironmentNames(tx: EntityManager, project: string): Promise<Set<string>> {
  const linked: Array<Pick<TableRow<ProjectEnvironmentRow>, 'environment_name'>> = await tx.execute(`select environment_name from project_environments where project_id = ?`, [project]);
  return new Set(linked.map((r) => r.environment_name));
}

/** The feature's environment variants as stored, per environment row. */
export async function environmentVariantRows(tx: EntityManager, feature: string): Promise<Array<Pick<TableRow<FeatureEnvironmentRow>, 'environment' | 'variants'>>> {
  return tx.execute(`select environment, variants from feature_environments where feature_name = ?`, [feature]);
}

export async function copyEnvironmentVariants(tx: EntityManager, feature: string, environment: string, variants: unknown[]): Promise<void> {
  await tx.execute(`update feature_environments set variants = ?::jsonb where feature_name = ? and environment = ?`, [JSON.stringify(variants), feature, environment]);
}

/** Segments among `ids` that belong to a project other than `project` (by id). */
export async function segmentsOfOtherProjects(tx: EntityManager, ids: number[], project: string): Promise<Array<Pick<TableRow<InferEntity<typeof SegmentSchema>>, 'id' | 'project'>>> {
  return tx.execute(`select id, project from segments where id in (?) and project is not null and project <> ? order by id`, [ids, project]);
}

/** The project of a feature (undefined when there is none), read `for key share`: the feature stays until commit. */
export async function parentProject(tx: EntityManager, name: string): Promise<string | undefined> {
  const parent: Array<Pick<TableRow<FeatureRow>, 'project'>> = await tx.execute(`select project from features where name = ? for key share`, [name]);
  return parent[0]?.project;
}

export async function insertDependency(tx: EntityManager, parent: string, child: string, enabled: boolean, variants: string[]): Promise<void> {
  await tx.execute(`insert into feature_dependencies (parent, child, enabled, variants) values (?, ?, ?, ?::jsonb)`,
    [parent, child, enabled, JSON.stringify(variants)]);
}
