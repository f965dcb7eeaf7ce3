import type { EntityManager } from '@mikro-orm/postgresql';
import { ProjectSchema } from '../projects/project.entity';
import type { TableRow } from '../rows';
import { EnvironmentSchema, type EnvironmentRow } from './environment.entity';
import type { Environment } from './environment.shapes';

/** The reads of environments and the mapping of their rows into the `Environment` both doors return. */

export const toEnvironment = (r: EnvironmentRow): Environment =>
  ({ name: r.name, type: r.type, enabled: r.enabled, protected: r.protected, sortOrder: r.sortOrder });

/** Every environment, by sort order then name. */
export async function listEnvironments(em: EntityManager): Promise<Environment[]> {
  const rows = await em.find(EnvironmentSchema, {}, { orderBy: { sortOrder: 'asc', name: 'asc' }, disableIdentityMap: true });
  return rows.map(toEnvironment);
}

/**
 * The switched-on environments linked to a project, by sort order then name; undefined when there is no such project.
 */
export async function projectEnvironments(em: EntityManager, projectId: string): Promise<Environment[] | undefined> {
  if ((await em.count(ProjectSchema, { id: projectId })) === 0) return undefined;
  const rows: Array<Pick<TableRow<EnvironmentRow>, 'name' | 'type' | 'enabled' | 'protected' | 'sort_order'>> = await em.execute(
    `select e.name, e.type, e.enabled, e.protected, e.sort_order from environments e
       join project_environments pe on pe.environment_name = e.name
      where pe.project_id = ? and e.enabled order by e.sort_order, e.name`,
    [projectId],
  );
  return rows.map((r) => ({ name: r.name, type: r.type, enabled: r.enabled, protected: r.protected, sortOrder: r.sort_order }));
}
