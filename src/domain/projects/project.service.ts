import { ROLE_OWNER } from '../access/permissions';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change, lockClause, type RowLock } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { featureNamingSchema, validateFeatureNaming } from './feature-naming';
import { healthRatings } from './health-report.service';
import { ProjectEnvironmentSchema, ProjectSchema, type ProjectRow } from './project.entity';

export const PROJECT_MODES = ['open', 'protected', 'private'] as const;
export type ProjectMode = (typeof PROJECT_MODES)[number];

export interface FeatureNaming {
  pattern: string | null;
  example: string | null;
  description: string | null;
}

export interface Project {
  id: string;
  name: string;
  description: string | null;
  mode: ProjectMode;
  defaultStickiness: string;
  featureLimit: number | null;
  featureNaming: FeatureNaming;
  health: number;
  createdAt: string;
  updatedAt: string | null;
}

export interface ProjectEnvironmentLink {
  environment: string;
  defaultStrategy: Record<string, unknown> | null;
}

const projectFields = {
  name: z.string().min(1).max(100),
  description: description.nullable().optional(),
  mode: z.enum(PROJECT_MODES).optional(),
  defaultStickiness: z.string().min(1).max(100).optional(),
  featureLimit: z.number().int().min(0).max(1_000_000).nullable().optional(),
};
export const createSchema = z.object({ id: urlFriendlyName(1, 100), ...projectFields }).strict();
// The id may be repeated in the body (Unleash clients send the whole project) but must not differ from the path.
export const updateSchema = z.object({ id: z.string().optional(), ...projectFields }).strict();
export const linkSchema = z.object({ environment: z.string().min(1).max(100) }).strict();
/** Project (enterprise) settings, spec endpoint 2: fields not provided are ignored. */
export const settingsSchema = z.object({ mode: z.enum(PROJECT_MODES).optional(), featureNaming: featureNamingSchema.optional() }).strict();

export type CreateProjectInput = z.input<typeof createSchema>;
export type UpdateProjectInput = z.input<typeof updateSchema>;
export type UpdateProjectSettingsInput = z.input<typeof settingsSchema>;

export const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  mode: r.mode as ProjectMode,
  defaultStickiness: r.defaultStickiness,
  featureLimit: r.featureLimit ?? null,
  featureNaming: { pattern: r.featureNamingPattern ?? null, example: r.featureNamingExample ?? null, description: r.featureNamingDescription ?? null },
  health: r.health,
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: r.updatedAt ? new Date(r.updatedAt).toISOString() : null,
});

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

export class ProjectService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async list(): Promise<Project[]> {
    return this.withLiveHealth((await this.em.find(ProjectSchema, {}, { orderBy: { name: 'asc', id: 'asc' } })).map(toProject));
  }

  async get(id: string): Promise<Project> {
    return (await this.withLiveHealth([toProject(await loadProject(this.em, id))]))[0];
  }

  private async live(project: Promise<Project>): Promise<Project> {
    return (await this.withLiveHealth([await project]))[0];
  }

  /** `health` computed now, as the health report computes it (D5), so a project never shows a rating its own report contradicts. */
  private async withLiveHealth(projects: Project[]): Promise<Project[]> {
    const ratings = await healthRatings(this.em, projects.map((p) => p.id));
    return projects.map((p) => ({ ...p, health: ratings.get(p.id) ?? 100 }));
  }

  /** The REST list: every project with its count of non-archived features. */
  async listWithCounts(): Promise<Array<Project & { featureCount: number }>> {
    const projects = await this.list();
    const counts = await this.featureCounts(projects.map((p) => p.id));
    return projects.map((p) => ({ ...p, featureCount: counts.get(p.id) ?? 0 }));
  }

  /** One project with its environments and feature count. */
  async details(id: string): Promise<Project & { featureCount: number; environments: ProjectEnvironmentLink[] }> {
    const project = await this.get(id);
    const links = await this.environmentLinks([id]);
    const counts = await this.featureCounts([id]);
    return { ...project, featureCount: counts.get(id) ?? 0, environments: links.get(id) ?? [] };
  }

  /** Non-archived feature counts for the given projects, in one query. */
  async featureCounts(ids: readonly string[]): Promise<Map<string, number>> {
    const rows: Array<{ project: string; count: number }> = ids.length === 0 ? [] : await this.em.execute(
      `select project, count(*)::int as count from features where archived_at is null and project in (?) group by project`, [ids as string[]]);
    return new Map(rows.map((r) => [r.project, r.count]));
  }

  /** Members of the given projects (see memberCounts), in one query. */
  memberCounts(ids: readonly string[]): Promise<Map<string, number>> {
    return memberCounts(this.em, ids);
  }

  /** Environment links of the given projects (switched-off environments left out, D6), in one query. */
  async environmentLinks(ids: readonly string[]): Promise<Map<string, ProjectEnvironmentLink[]>> {
    const rows: Array<{ project_id: string; environment_name: string; default_strategy: Record<string, unknown> | null }> = ids.length === 0 ? [] :
      await this.em.execute(
        `select pe.project_id, pe.environment_name, pe.default_strategy from project_environments pe
           join environments e on e.name = pe.environment_name
          where pe.project_id in (?) and e.enabled order by e.sort_order, e.name`, [ids as string[]]);
    const out = new Map<string, ProjectEnvironmentLink[]>(ids.map((id) => [id, []]));
    for (const r of rows) out.get(r.project_id)?.push({ environment: r.environment_name, defaultStrategy: r.default_strategy ?? null });
    return out;
  }

  async create(input: CreateProjectInput): Promise<Project> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_PROJECT');
    return change(this.em, this.principal, async (tx, emit) => {
      if (await tx.findOne(ProjectSchema, { id: data.id })) throw new NameExistsError(`A project with the id ${data.id} already exists`);
      // A new project starts with every environment that is switched on: they stay (and stay on) until it is created.
      const environments: Array<{ name: string }> = await tx.execute(`select name from environments where enabled order by name for share`);
      const row = tx.create(ProjectSchema, {
        id: data.id, name: data.name, description: data.description ?? null, mode: data.mode ?? 'open',
        defaultStickiness: data.defaultStickiness ?? 'default', featureLimit: data.featureLimit ?? null, health: 100,
      });
      await tx.flush(); // the project row first (fills createdAt): links reference it
      for (const env of environments) {
        tx.create(ProjectEnvironmentSchema, { projectId: data.id, environmentName: env.name, defaultStrategy: null });
      }
      const project = toProject(row);
      // Its creator owns it (issue 9), when the creator is a user that exists (an API token is no one to own it).
      if (this.principal.kind === 'user' && this.principal.userId !== null) {
        await tx.flush();
        await tx.execute('insert into role_user (role_id, user_id, project) select ?, id, ? from users where id = ?', [ROLE_OWNER, project.id, this.principal.userId]);
      }
      emit({ type: 'project-created', project: project.id, data: project });
      return project;
    });
  }

  async update(id: string, input: UpdateProjectInput): Promise<Project> {
    const data = parse(updateSchema, input);
    if (data.id !== undefined && data.id !== id) throw ValidationError.single('id', 'The `id` property must equal the project id in the path; a project id cannot be changed.');
    await this.access.check('UPDATE_PROJECT', { project: id });
    return this.live(change(this.em, this.principal, async (tx, emit) => {
      const row = await loadProject(tx, id, 'update');
      const before = toProject(row);
      row.name = data.name;
      if (data.description !== undefined) row.description = data.description;
      if (data.mode !== undefined) row.mode = data.mode;
      if (data.defaultStickiness !== undefined) row.defaultStickiness = data.defaultStickiness;
      if (data.featureLimit !== undefined) row.featureLimit = data.featureLimit;
      if (sameJson(before, toProject(row))) return before; // nothing changed: no event, no new updatedAt
      row.updatedAt = new Date();
      const after = toProject(row);
      emit({ type: 'project-updated', project: id, data: after, preData: before });
      return after;
    }));
  }

  /**
   * Sets the collaboration mode and/or the feature naming pattern (spec endpoint 2). Unlike Unleash's store, an
   * absent field is left as it is (the spec: "Fields not provided are ignored"); `featureNaming: {pattern: null}`
   * clears the pattern with its example and description. Event project-updated when something changed.
   */
  async updateSettings(id: string, input: UpdateProjectSettingsInput): Promise<Project> {
    const data = parse(settingsSchema, input);
    const naming = data.featureNaming === undefined ? undefined : validateFeatureNaming(data.featureNaming);
    await this.access.check('UPDATE_PROJECT', { project: id });
    return this.live(change(this.em, this.principal, async (tx, emit) => {
      const row = await loadProject(tx, id, 'update');
      const before = toProject(row);
      if (data.mode !== undefined) row.mode = data.mode;
      if (naming !== undefined) {
        row.featureNamingPattern = naming.pattern;
        row.featureNamingExample = naming.example;
        row.featureNamingDescription = naming.description;
      }
      if (sameJson(before, toProject(row))) return before; // nothing changed: no event, no new updatedAt
      row.updatedAt = new Date();
      const after = toProject(row);
      emit({ type: 'project-updated', project: id, data: after, preData: before });
      return after;
    }));
  }

  async remove(id: string): Promise<void> {
    await this.access.check('DELETE_PROJECT', { project: id });
    await change(this.em, this.principal, async (tx, emit) => {
      // Locked: a feature being created in the project holds it shared, so the counts below include it.
      const row = await loadProject(tx, id, 'update');
      if (id === 'default') throw new InvalidOperationError('You can not delete the default project!');
      const [{ active, archived }]: Array<{ active: number; archived: number }> = await tx.execute(
        `select count(*) filter (where archived_at is null)::int as active, count(*) filter (where archived_at is not null)::int as archived
           from features where project = ?`, [id]);
      if (active > 0) throw new InvalidOperationError('You can not delete a project with active feature toggles');
      if (archived > 0) throw new InvalidOperationError('You can not delete a project with archived feature toggles; delete them from the archive first');
      emit({ type: 'project-deleted', project: id, preData: toProject(row) });
      tx.remove(row);
    });
  }

  /** Returns the project (unchanged itself; its environments are read through `environmentLinks`). */
  async addEnvironment(id: string, input: unknown): Promise<Project> {
    const { environment } = parse(linkSchema, input);
    await this.access.check('UPDATE_PROJECT', { project: id });
    return this.live(change(this.em, this.principal, async (tx, emit) => {
      // The project's links change one at a time (and wait for features being created in it, so each new feature
      // gets its configuration in the new environment, from here or from its own create); the environment stays on.
      const project = toProject(await loadProject(tx, id, 'no key update'));
      const [env]: Array<{ enabled: boolean }> = await tx.execute(`select enabled from environments where name = ? for share`, [environment]);
      if (!env) throw new NotFoundError(`Could not find environment ${environment}`);
      if (!env.enabled) throw ValidationError.single('environment', `The environment "${environment}" is switched off and cannot be added to a project.`);
      if (await tx.findOne(ProjectEnvironmentSchema, { projectId: id, environmentName: environment })) {
        throw new NameExistsError(`The environment "${environment}" is already enabled for project "${id}"`);
      }
      tx.create(ProjectEnvironmentSchema, { projectId: id, environmentName: environment, defaultStrategy: null });
      await tx.flush();
      // Every feature of the project gets its (disabled) configuration in the new environment.
      await tx.execute(
        `insert into feature_environments (feature_name, environment, enabled)
         select name, ?, false from features where project = ? on conflict do nothing`, [environment, id]);
      emit({ type: 'project-environment-added', project: id, environment });
      return project;
    }));
  }

  async removeEnvironment(id: string, environment: string): Promise<Project> {
    await this.access.check('UPDATE_PROJECT', { project: id });
    return this.live(change(this.em, this.principal, async (tx, emit) => {
      // Unlinks of one project take turns, so the count below cannot be raced down to no environment at all.
      const project = toProject(await loadProject(tx, id, 'no key update'));
      const link = await tx.findOne(ProjectEnvironmentSchema, { projectId: id, environmentName: environment });
      if (!link) throw new NotFoundError(`The environment "${environment}" is not enabled for project "${id}"`);
      const others = await tx.count(ProjectEnvironmentSchema, { projectId: id, environmentName: { $ne: environment } });
      if (others === 0) throw ValidationError.single('environment', 'A project must always have at least one environment.');
      tx.remove(link);
      await tx.flush();
      await tx.execute(`delete from feature_strategies where project = ? and environment = ?`, [id, environment]);
      await tx.execute(`delete from feature_environments fe using features f where f.name = fe.feature_name and f.project = ? and fe.environment = ?`, [id, environment]);
      emit({ type: 'project-environment-removed', project: id, environment });
      return project;
    }));
  }

}

/**
 * A project's row, or NotFoundError; the one lookup every service uses for the project in a path. Inside a change,
 * `lock` takes the row lock first and then reads the row afresh (never from the identity map): `update` to change or
 * delete it, `no key update` to change its environment links, `share` to create a feature in it (its naming rules,
 * limit and links stay as read), `key share` to make something else belong to it (it stays until commit).
 */
export async function loadProject(em: EntityManager, id: string, lock?: RowLock): Promise<ProjectRow> {
  if (lock) {
    const locked: unknown[] = await em.execute(`select id from projects where id = ?${lockClause(lock)}`, [id]);
    if (locked.length === 0) throw new NotFoundError(`Project with id ${id} does not exist`);
  }
  const row = await em.findOne(ProjectSchema, { id }, lock ? { refresh: true } : {});
  if (!row) throw new NotFoundError(`Project with id ${id} does not exist`);
  return row;
}

/** Locks the environment links of the given projects (`no key update` on their rows, in id order, rule 3 in change.ts). */
export async function lockProjectLinks(em: EntityManager, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await em.execute(`select id from projects where id in (?) order by id for no key update`, [ids as string[]]);
}
