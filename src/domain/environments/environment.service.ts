import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { ADMIN } from '../access/permissions';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { lockProjectLinks } from '../projects/project.store';
import { parse, sameJson, urlFriendlyName } from '../validation';
import { listEnvironments, projectEnvironments, toEnvironment } from './environment.read-model';
import type { Environment } from './environment.shapes';
import {
  createEnvironment, deleteEnvironmentPermissions, environmentExists, linkedProjects, loadEnvironment, projectsOnlyIn, removeEnvironment,
} from './environment.store';

const name = urlFriendlyName(1, 100);
const type = z.string().min(1).max(100);
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000);
export const createSchema = z.object({ name, type, sortOrder: sortOrder.optional(), enabled: z.boolean().optional() }).strict();
export const updateSchema = z.object({ name: z.string().optional(), type: type.optional(), sortOrder: sortOrder.optional() }).strict();

export type CreateEnvironmentInput = z.input<typeof createSchema>;
export type UpdateEnvironmentInput = z.input<typeof updateSchema>;

export class EnvironmentService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async list(): Promise<Environment[]> {
    return listEnvironments(this.em);
  }

  async get(envName: string): Promise<Environment> {
    return toEnvironment(await loadEnvironment(this.em, envName));
  }

  /** Environments linked to a project that are switched on (D6: a switched-off one is not available). */
  async forProject(projectId: string): Promise<Environment[]> {
    const environments = await projectEnvironments(this.em, projectId);
    if (!environments) throw new NotFoundError(`Project with id ${projectId} does not exist`);
    return environments;
  }

  async create(input: CreateEnvironmentInput): Promise<Environment> {
    const data = parse(createSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      if (await environmentExists(tx, data.name)) {
        throw new NameExistsError(`An environment with the name ${data.name} already exists`);
      }
      const row = createEnvironment(tx, { name: data.name, type: data.type, sortOrder: data.sortOrder ?? 0, enabled: data.enabled ?? true, protected: false });
      const env = toEnvironment(row);
      emit({ type: 'environment-created', environment: env.name, data: env });
      return env;
    });
  }

  async update(envName: string, input: UpdateEnvironmentInput): Promise<Environment> {
    const data = parse(updateSchema, input);
    if (data.name !== undefined && data.name !== envName) throw ValidationError.single('name', 'The `name` property must equal the environment name in the path; an environment cannot be renamed.');
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadEnvironment(tx, envName, 'update');
      const before = toEnvironment(row);
      if (data.type !== undefined) row.type = data.type;
      if (data.sortOrder !== undefined) row.sortOrder = data.sortOrder;
      const after = toEnvironment(row);
      if (!sameJson(before, after)) emit({ type: 'environment-updated', environment: envName, data: after, preData: before });
      return after;
    });
  }

  async remove(envName: string): Promise<void> {
    await this.access.check(ADMIN);
    await change(this.em, this.principal, async (tx, emit) => {
      // Like unlinking, deleting may not leave a project without any environment. The links of the projects that use
      // the environment are locked first (projects before environments: rule 3 in change.ts), so a concurrent unlink
      // in one of them waits and the check below sees its result. A project linked between the two reads (it had to
      // wait for nothing we hold) is locked too, out of order: a deadlock there is rolled back and run again.
      const first = await linkedProjects(tx, envName);
      await lockProjectLinks(tx, first);
      const row = await loadEnvironment(tx, envName, 'update');
      await lockProjectLinks(tx, (await linkedProjects(tx, envName)).filter((id) => !first.includes(id)));
      const orphaned = await projectsOnlyIn(tx, envName);
      if (orphaned.length > 0) {
        throw ValidationError.single('name', `The environment "${envName}" is the only environment of project(s) ${orphaned.map((o) => `"${o}"`).join(', ')}; add another environment to them first.`);
      }
      emit({ type: 'environment-deleted', environment: envName, preData: toEnvironment(row) });
      // Custom roles' permissions in this environment go with it: an environment created later under the same name
      // starts with nobody holding anything in it.
      await deleteEnvironmentPermissions(tx, envName);
      removeEnvironment(tx, row);
    });
  }

  /** D6: switching off hides the environment from projects but keeps every feature configuration in it. No event, as in Unleash. */
  async setEnabled(envName: string, enabled: boolean): Promise<Environment> {
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx) => {
      const row = await loadEnvironment(tx, envName, 'update');
      row.enabled = enabled;
      return toEnvironment(row);
    });
  }
}
