import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { ADMIN } from '../access/permissions';
import type { Principal } from '../access/principal';
import { change, lockedFindOne } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { lockProjectLinks } from '../projects/project.store';
import { parse, sameJson, urlFriendlyName } from '../validation';
import { EnvironmentSchema, type EnvironmentRow } from './environment.entity';

export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
}

const name = urlFriendlyName(1, 100);
const type = z.string().min(1).max(100);
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000);
export const createSchema = z.object({ name, type, sortOrder: sortOrder.optional(), enabled: z.boolean().optional() }).strict();
export const updateSchema = z.object({ name: z.string().optional(), type: type.optional(), sortOrder: sortOrder.optional() }).strict();

export type CreateEnvironmentInput = z.input<typeof createSchema>;
export type UpdateEnvironmentInput = z.input<typeof updateSchema>;

export const toEnvironment = (r: EnvironmentRow): Environment =>
  ({ name: r.name, type: r.type, enabled: r.enabled, protected: r.protected, sortOrder: r.sortOrder });

export class EnvironmentService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async list(): Promise<Environment[]> {
    const rows = await this.em.find(EnvironmentSchema, {}, { orderBy: { sortOrder: 'asc', name: 'asc' } });
    return rows.map(toEnvironment);
  }

  async get(envName: string): Promise<Environment> {
    return toEnvironment(await this.load(this.em, envName));
  }

  /** Environments linked to a project that are switched on (D6: a switched-off one is not available). */
  async forProject(projectId: string): Promise<Environment[]> {
    const [{ found }]: Array<{ found: boolean }> = await this.em.execute('select exists(select 1 from projects where id = ?) as found', [projectId]);
    if (!found) throw new NotFoundError(`Project with id ${projectId} does not exist`);
    const rows: Array<{ name: string; type: string; enabled: boolean; protected: boolean; sort_order: number }> = await this.em.execute(
      `select e.name, e.type, e.enabled, e.protected, e.sort_order from environments e
         join project_environments pe on pe.environment_name = e.name
        where pe.project_id = ? and e.enabled order by e.sort_order, e.name`,
      [projectId],
    );
    return rows.map((r) => ({ name: r.name, type: r.type, enabled: r.enabled, protected: r.protected, sortOrder: r.sort_order }));
  }

  async create(input: CreateEnvironmentInput): Promise<Environment> {
    const data = parse(createSchema, input);
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx, emit) => {
      if (await tx.findOne(EnvironmentSchema, { name: data.name })) {
        throw new NameExistsError(`An environment with the name ${data.name} already exists`);
      }
      const row = tx.create(EnvironmentSchema, { name: data.name, type: data.type, sortOrder: data.sortOrder ?? 0, enabled: data.enabled ?? true, protected: false });
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
      const row = await this.load(tx, envName, true);
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
      const linked = async (): Promise<string[]> => ((await tx.execute(
        'select project_id from project_environments where environment_name = ? order by project_id', [envName])) as Array<{ project_id: string }>)
        .map((r) => r.project_id);
      const first = await linked();
      await lockProjectLinks(tx, first);
      const row = await this.load(tx, envName, true);
      await lockProjectLinks(tx, (await linked()).filter((id) => !first.includes(id)));
      const orphaned: Array<{ project_id: string }> = await tx.execute(
        `select pe.project_id from project_environments pe
          where pe.environment_name = ?
            and not exists (select 1 from project_environments o where o.project_id = pe.project_id and o.environment_name <> ?)
          order by pe.project_id`, [envName, envName]);
      if (orphaned.length > 0) {
        throw ValidationError.single('name', `The environment "${envName}" is the only environment of project(s) ${orphaned.map((o) => `"${o.project_id}"`).join(', ')}; add another environment to them first.`);
      }
      emit({ type: 'environment-deleted', environment: envName, preData: toEnvironment(row) });
      // Custom roles' permissions in this environment go with it: an environment created later under the same name
      // starts with nobody holding anything in it.
      await tx.execute('delete from role_permissions where environment = ?', [envName]);
      tx.remove(row);
    });
  }

  /** D6: switching off hides the environment from projects but keeps every feature configuration in it. No event, as in Unleash. */
  async setEnabled(envName: string, enabled: boolean): Promise<Environment> {
    await this.access.check(ADMIN);
    return change(this.em, this.principal, async (tx) => {
      const row = await this.load(tx, envName, true);
      row.enabled = enabled;
      return toEnvironment(row);
    });
  }

  /** The environment, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
  private async load(em: EntityManager, envName: string, lock = false): Promise<EnvironmentRow> {
    const row = lock ? await lockedFindOne(em, EnvironmentSchema, { name: envName }) : await em.findOne(EnvironmentSchema, { name: envName });
    if (!row) throw new NotFoundError(`Could not find environment ${envName}`);
    return row;
  }
}
