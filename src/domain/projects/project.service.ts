import { ROLE_OWNER } from '../access/permissions';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { featureNamingSchema, validateFeatureNaming } from './feature-naming';
import { healthRatings } from './health-report.read-model';
import { environmentLinks, featureCounts, listProjects, memberCounts, toProject } from './project.read-model';
import { PROJECT_MODES, type Project, type ProjectEnvironment } from './project.shapes';
import {
  addFeatureEnvironments, addProjectOwner, countOtherEnvironmentLinks, countProjectFeatures, deleteEnvironmentLink, dropFeatureEnvironments,
  findEnvironmentLink, insertEnvironmentLink, insertProject, loadProject, projectExists, removeProject, shareEnabledEnvironments,
  shareEnvironment,
} from './project.store';

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

export class ProjectService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async list(): Promise<Project[]> {
    return this.withLiveHealth(await listProjects(this.em));
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
  async details(id: string): Promise<Project & { featureCount: number; environments: ProjectEnvironment[] }> {
    const project = await this.get(id);
    const links = await this.environmentLinks([id]);
    const counts = await this.featureCounts([id]);
    return { ...project, featureCount: counts.get(id) ?? 0, environments: links.get(id) ?? [] };
  }

  /** Non-archived feature counts for the given projects, in one query. */
  featureCounts(ids: readonly string[]): Promise<Map<string, number>> {
    return featureCounts(this.em, ids);
  }

  /** Members of the given projects (see memberCounts), in one query. */
  memberCounts(ids: readonly string[]): Promise<Map<string, number>> {
    return memberCounts(this.em, ids);
  }

  /** Environment links of the given projects (switched-off environments left out, D6), in one query. */
  environmentLinks(ids: readonly string[]): Promise<Map<string, ProjectEnvironment[]>> {
    return environmentLinks(this.em, ids);
  }

  async create(input: CreateProjectInput): Promise<Project> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_PROJECT');
    return change(this.em, this.principal, async (tx, emit) => {
      if (await projectExists(tx, data.id)) throw new NameExistsError(`A project with the id ${data.id} already exists`);
      // A new project starts with every environment that is switched on: they stay (and stay on) until it is created.
      const environments = await shareEnabledEnvironments(tx);
      const project = toProject(await insertProject(tx, {
        id: data.id, name: data.name, description: data.description ?? null, mode: data.mode ?? 'open',
        defaultStickiness: data.defaultStickiness ?? 'default', featureLimit: data.featureLimit ?? null, health: 100,
      }, environments));
      // Its creator owns it (issue 9), when the creator is a user that exists (an API token is no one to own it).
      if (this.principal.kind === 'user' && this.principal.userId !== null) {
        await addProjectOwner(tx, ROLE_OWNER, project.id, this.principal.userId);
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
      const { active, archived } = await countProjectFeatures(tx, id);
      if (active > 0) throw new InvalidOperationError('You can not delete a project with active feature toggles');
      if (archived > 0) throw new InvalidOperationError('You can not delete a project with archived feature toggles; delete them from the archive first');
      emit({ type: 'project-deleted', project: id, preData: toProject(row) });
      removeProject(tx, row);
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
      const env = await shareEnvironment(tx, environment);
      if (!env) throw new NotFoundError(`Could not find environment ${environment}`);
      if (!env.enabled) throw ValidationError.single('environment', `The environment "${environment}" is switched off and cannot be added to a project.`);
      if (await findEnvironmentLink(tx, id, environment)) {
        throw new NameExistsError(`The environment "${environment}" is already enabled for project "${id}"`);
      }
      await insertEnvironmentLink(tx, id, environment);
      // Every feature of the project gets its (disabled) configuration in the new environment.
      await addFeatureEnvironments(tx, id, environment);
      emit({ type: 'project-environment-added', project: id, environment });
      return project;
    }));
  }

  async removeEnvironment(id: string, environment: string): Promise<Project> {
    await this.access.check('UPDATE_PROJECT', { project: id });
    return this.live(change(this.em, this.principal, async (tx, emit) => {
      // Unlinks of one project take turns, so the count below cannot be raced down to no environment at all.
      const project = toProject(await loadProject(tx, id, 'no key update'));
      const link = await findEnvironmentLink(tx, id, environment);
      if (!link) throw new NotFoundError(`The environment "${environment}" is not enabled for project "${id}"`);
      if ((await countOtherEnvironmentLinks(tx, id, environment)) === 0) {
        throw ValidationError.single('environment', 'A project must always have at least one environment.');
      }
      await deleteEnvironmentLink(tx, link);
      await dropFeatureEnvironments(tx, id, environment);
      emit({ type: 'project-environment-removed', project: id, environment });
      return project;
    }));
  }
}
