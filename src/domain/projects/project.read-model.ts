import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import type { TableRow } from '../rows';
import { ProjectSchema, type ProjectEnvironmentRow, type ProjectRow } from './project.entity';
import type { Project, ProjectEnvironment } from './project.shapes';

/** The reads of projects and the mapping of their rows into the `Project` both doors return. */

export const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  mode: r.mode,
  defaultStickiness: r.defaultStickiness,
  featureLimit: r.featureLimit ?? null,
  featureNaming: { pattern: r.featureNamingPattern ?? null, example: r.featureNamingExample ?? null, description: r.featureNamingDescription ?? null },
  health: r.health,
  createdAt: iso(r.createdAt),
  updatedAt: isoOrNull(r.updatedAt),
});

/** Every project, by name then id (their stored `health`; the service replaces it with the live one). */
export async function listProjects(em: EntityManager): Promise<Project[]> {
  return (await em.find(ProjectSchema, {}, { orderBy: { name: 'asc', id: 'asc' }, disableIdentityMap: true })).map(toProject);
}

/**
 * Distinct users holding a role in each project, directly or through a group (Unleash's `memberCount`), in one query;
 * the state export's projects carry the same figure.
 */
export async function memberCounts(em: EntityManager, ids: readonly string[]): Promise<Map<string, number>> {
  const rows: Array<{ project: string; count: number }> = ids.length === 0 ? [] : await em.execute(
    `select project, count(distinct user_id)::int as count from (
       select ru.project, ru.user_id from role_user ru where ru.project in (?)
       union all
       select gr.project, gu.user_id from group_role gr join group_user gu on gu.group_id = gr.group_id where gr.project in (?)
     ) holders group by project`, [ids as string[], ids as string[]]);
  return new Map(rows.map((r) => [r.project, r.count]));
}

/** Non-archived feature counts for the given projects, in one query. */
export async function featureCounts(em: EntityManager, ids: readonly string[]): Promise<Map<string, number>> {
  const rows: Array<{ project: string; count: number }> = ids.length === 0 ? [] : await em.execute(
    `select project, count(*)::int as count from features where archived_at is null and project in (?) group by project`, [ids as string[]]);
  return new Map(rows.map((r) => [r.project, r.count]));
}

/** Environment links of the given projects (switched-off environments left out, D6), in one query. */
export async function environmentLinks(em: EntityManager, ids: readonly string[]): Promise<Map<string, ProjectEnvironment[]>> {
  const rows: Array<Pick<TableRow<ProjectEnvironmentRow>, 'project_id' | 'environment_name' | 'default_strategy'>> = ids.length === 0 ? [] :
    await em.execute(
      `select pe.project_id, pe.environment_name, pe.default_strategy from project_environments pe
         join environments e on e.name = pe.environment_name
        where pe.project_id in (?) and e.enabled order by e.sort_order, e.name`, [ids as string[]]);
  const out = new Map<string, ProjectEnvironment[]>(ids.map((id) => [id, []]));
  for (const r of rows) out.get(r.project_id)?.push({ environment: r.environment_name, defaultStrategy: r.default_strategy ?? null });
  return out;
}
