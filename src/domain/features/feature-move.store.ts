import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProjectRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import type { SegmentSchema } from '../segments/segment.entity';
import type { FeatureEnvironmentRow } from './feature-environment.entity';
import type { DependencyLink } from './feature.read-model';

/** The SQL of moving a feature to another project (feature-move.service.ts says what each rule is for). */

/** What a move reads of the projects it touches. */
export type MoveProjectRow = Pick<TableRow<ProjectRow>, 'id' | 'feature_limit' | 'feature_naming_pattern' | 'feature_naming_example' | 'feature_naming_description'>;

/**
 * Both projects, read `for share` in id order (rule 3 in change.ts: projects first): neither can be deleted, have its
 * environment links changed (those take the row `for no key update`) or its settings changed until the move is done.
 */
export async function lockMoveProjects(tx: EntityManager, ids: readonly string[]): Promise<MoveProjectRow[]> {
  return tx.execute(
    `select id, feature_limit, feature_naming_pattern, feature_naming_example, feature_naming_description
       from projects where id in (?) order by id for share`, [ids as string[]]);
}

/** The first environment (by project, then name) of the projects where change requests are enabled; read `for share`. */
export async function changeRequestEnvironment(tx: EntityManager, projects: readonly string[]): Promise<{ project: string; environment: string } | undefined> {
  const [row]: Array<{ project: string; environment: string }> = await tx.execute(
    `select project_id as project, environment_name as environment from project_environments
      where project_id in (?) and change_requests_enabled order by project_id, environment_name limit 1 for share`, [projects as string[]]);
  return row;
}

/** The dependencies the feature is in, as parent or as child (by parent, then child). */
export async function dependencyLinks(tx: EntityManager, name: string): Promise<DependencyLink[]> {
  return tx.execute(`select parent, child from feature_dependencies where parent = ? or child = ? order by parent, child`, [name, name]);
}

/**
 * Segments of a project other than `target` that the feature's strategies use, read `for share` so none is moved to
 * another project (or deleted) while the move relies on it.
 */
export async function foreignSegments(tx: EntityManager, name: string, target: string): Promise<Array<Pick<TableRow<InferEntity<typeof SegmentSchema>>, 'id' | 'project'>>> {
  return tx.execute(
    `select s.id, s.project from segments s
      where s.id in (select fss.segment_id from feature_strategies fs join feature_strategy_segments fss on fss.feature_strategy_id = fs.id where fs.feature_name = ?)
        and s.project is not null and s.project <> ?
      order by s.id for share`, [name, target]);
}

/**
 * Environments the target project has not added in which the feature has configuration (switched on, variants or
 * strategies), by name: the move would have to drop it.
 */
export async function configuredEnvironmentsOutside(tx: EntityManager, name: string, target: string): Promise<string[]> {
  const rows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'environment'>> = await tx.execute(
    `select environment from (
       select environment from feature_environments where feature_name = ? and (enabled or variants <> '[]'::jsonb)
       union select environment from feature_strategies where feature_name = ?
     ) c
      where not exists (select 1 from project_environments pe where pe.project_id = ? and pe.environment_name = c.environment)
      order by environment`, [name, name, target]);
  return rows.map((r) => r.environment);
}

/**
 * Moves the feature row and its strategies (which carry their project) to `target`, and gives the feature exactly the
 * target's environments: rows of environments the target lacks go (configuredEnvironmentsOutside found none of them
 * configured), and environments it lacks are added switched off, as when an environment is added to a project.
 */
export async function moveFeatureRows(tx: EntityManager, name: string, target: string): Promise<void> {
  await tx.execute(`update features set project = ? where name = ?`, [target, name]);
  await tx.execute(`update feature_strategies set project = ? where feature_name = ?`, [target, name]);
  await tx.execute(
    `delete from feature_environments fe where fe.feature_name = ?
        and not exists (select 1 from project_environments pe where pe.project_id = ? and pe.environment_name = fe.environment)`, [name, target]);
  await tx.execute(
    `insert into feature_environments (feature_name, environment, enabled)
     select ?, environment_name, false from project_environments where project_id = ? on conflict do nothing`, [name, target]);
}
