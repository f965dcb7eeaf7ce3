import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError } from '../errors';
import { parse } from '../validation';
import { projectChangeRequestConfig } from './change-request-config.read-model';
import type { ChangeRequestConfig } from './change-request.shapes';
import { loadProjectEnvironmentConfig, updateProjectEnvironmentConfig } from './change-request-config.store';

export const updateSchema = z.object({
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int().min(1).max(10).optional(),
}).strict();

export type UpdateChangeRequestConfigInput = z.input<typeof updateSchema>;

/**
 * Change requests, configuration (issue 12): per environment of a project, whether direct changes to its features
 * need a change request, and how many approvals (1 to 10) a request needs. Reading needs any admin credentials;
 * changing needs UPDATE_PROJECT in the project. Event change-request-configuration-updated.
 */
export class ChangeRequestConfigService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Every environment of the project, in the environments' sort order; 404 for an unknown project. */
  async get(project: string): Promise<ChangeRequestConfig[]> {
    const config = await projectChangeRequestConfig(this.em, project);
    if (!config) throw new NotFoundError('No project found');
    return config;
  }

  async update(project: string, environment: string, input: unknown): Promise<ChangeRequestConfig> {
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_PROJECT', { project });
    return change(this.em, this.principal, async (tx, emit) => {
      const before = await loadProjectEnvironmentConfig(tx, project, environment, 'update');
      const after: ChangeRequestConfig = { ...before, changeRequestsEnabled: data.changeRequestsEnabled, requiredApprovals: data.requiredApprovals ?? before.requiredApprovals };
      if (after.changeRequestsEnabled === before.changeRequestsEnabled && after.requiredApprovals === before.requiredApprovals) return after;
      await updateProjectEnvironmentConfig(tx, project, environment, after);
      emit({
        type: 'change-request-configuration-updated', project, environment,
        data: { changeRequestsEnabled: after.changeRequestsEnabled, requiredApprovals: after.requiredApprovals },
        preData: { changeRequestsEnabled: before.changeRequestsEnabled, requiredApprovals: before.requiredApprovals },
      });
      return after;
    });
  }
}
