import type { EntityManager } from '@mikro-orm/postgresql';
import type { EnvironmentRow } from '../environments/environment.entity';
import type { ProjectEnvironmentRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import type { ChangeRequestConfig } from './change-request.shapes';

/** The settings of a project environment as read from `project_environments` (`environment_name as environment`) with its environment's type. */
export type ConfigRow = Pick<TableRow<ProjectEnvironmentRow>, 'change_requests_enabled' | 'required_approvals'> & Pick<TableRow<EnvironmentRow>, 'type'>
  & { environment: string };

export const toConfig = (r: ConfigRow): ChangeRequestConfig => ({
  environment: r.environment, type: r.type, changeRequestsEnabled: r.change_requests_enabled, requiredApprovals: r.required_approvals,
});

/** Every environment of the project, in the environments' sort order; undefined for an unknown project. */
export async function projectChangeRequestConfig(em: EntityManager, project: string): Promise<ChangeRequestConfig[] | undefined> {
  const rows: Array<ConfigRow & { project_exists: boolean }> = await em.execute(
    `select p.id is not null as project_exists, pe.environment_name as environment, e.type, pe.change_requests_enabled, pe.required_approvals
       from (select ?::text as id) q
       left join projects p on p.id = q.id
       left join project_environments pe on pe.project_id = p.id
       left join environments e on e.name = pe.environment_name
      order by e.sort_order, e.name`,
    [project],
  );
  if (!rows[0]?.project_exists) return undefined;
  return rows.filter((r) => r.environment !== null).map(toConfig);
}
