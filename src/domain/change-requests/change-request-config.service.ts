import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError } from '../errors';
import { parse } from '../validation';

/** One environment of a project with its change-request settings (GET …/change-requests/config). */
export interface ChangeRequestEnvironmentConfig {
  environment: string;
  type: string;
  changeRequestsEnabled: boolean;
  requiredApprovals: number;
}

export const updateSchema = z.object({
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int().min(1).max(10).optional(),
}).strict();

export type UpdateChangeRequestConfigInput = z.input<typeof updateSchema>;

interface ConfigRow {
  environment: string;
  type: string;
  change_requests_enabled: boolean;
  required_approvals: number;
}

const toConfig = (r: ConfigRow): ChangeRequestEnvironmentConfig => ({
  environment: r.environment, type: r.type, changeRequestsEnabled: r.change_requests_enabled, requiredApprovals: r.required_approvals,
});

/**
 * An environment's change-request settings in a project, read with a row lock inside a transaction; 404 naming the
 * project or the environment when the project has no such environment. The configuration change locks it `for
 * update`, a new change request relies on it `for share`.
 */
export async function lockedProjectEnvironment(tx: EntityManager, project: string, environment: string, lock: 'update' | 'share'): Promise<ChangeRequestEnvironmentConfig> {
  const [row]: ConfigRow[] = await tx.execute(
    `select pe.environment_name as environment, e.type, pe.change_requests_enabled, pe.required_approvals
       from project_environments pe join environments e on e.name = pe.environment_name
      where pe.project_id = ? and pe.environment_name = ? for ${lock} of pe`,
    [project, environment],
  );
  if (row) return toConfig(row);
  const [p] = await tx.execute('select 1 from projects where id = ?', [project]);
  if (!p) throw new NotFoundError('No project found');
  throw new NotFoundError(`The environment "${environment}" is not enabled in project "${project}"`);
}

/**
 * Change requests, configuration (issue 12): per environment of a project, whether direct changes to its features
 * need a change request, and how many approvals (1 to 10) a request needs. Reading needs any admin credentials;
 * changing needs UPDATE_PROJECT in the project. Event change-request-configuration-updated.
 */
export class ChangeRequestConfigService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Every environment of the project, in the environments' sort order; 404 for an unknown project. */
  async get(project: string): Promise<ChangeRequestEnvironmentConfig[]> {
    const rows: Array<ConfigRow & { project_exists: boolean }> = await this.em.execute(
      `select p.id is not null as project_exists, pe.environment_name as environment, e.type, pe.change_requests_enabled, pe.required_approvals
         from (select ?::text as id) q
         left join projects p on p.id = q.id
         left join project_environments pe on pe.project_id = p.id
         left join environments e on e.name = pe.environment_name
        order by e.sort_order, e.name`,
      [project],
    );
    if (!rows[0]?.project_exists) throw new NotFoundError('No project found');
    return rows.filter((r) => r.environment !== null).map(toConfig);
  }

  async update(project: string, environment: string, input: unknown): Promise<ChangeRequestEnvironmentConfig> {
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_PROJECT', { project });
    return change(this.em, this.principal, async (tx, emit) => {
      const before = await lockedProjectEnvironment(tx, project, environment, 'update');
      const after: ChangeRequestEnvironmentConfig = { ...before, changeRequestsEnabled: data.changeRequestsEnabled, requiredApprovals: data.requiredApprovals ?? before.requiredApprovals };
      if (after.changeRequestsEnabled === before.changeRequestsEnabled && after.requiredApprovals === before.requiredApprovals) return after;
      await tx.execute('update project_environments set change_requests_enabled = ?, required_approvals = ? where project_id = ? and environment_name = ?',
        [after.changeRequestsEnabled, after.requiredApprovals, project, environment]);
      emit({
        type: 'change-request-configuration-updated', project, environment,
        data: { changeRequestsEnabled: after.changeRequestsEnabled, requiredApprovals: after.requiredApprovals },
        preData: { changeRequestsEnabled: before.changeRequestsEnabled, requiredApprovals: before.requiredApprovals },
      });
      return after;
    });
  }
}
