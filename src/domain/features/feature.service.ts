import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseCloneIntoChangeRequestProject, refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change, lockedFindOne } from '../change';
import type { EventInput } from '../events/event.store';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { checkFeatureName } from '../projects/feature-naming';
import { FeatureOverviewCache, type ProjectFeaturePage } from '../projects/feature-overview';
import { toProject } from '../projects/project.read-model';
import { loadProject } from '../projects/project.store';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { FeatureTypeSchema } from './feature.entity';
import { writeStrategy } from './feature-strategy.store';
import { featureEventData, loadFeature, loadProjectFeature, lockFeatures } from './feature.lookup';
import { FeatureReadModel, toFeatureSummary, type Feature, type FeatureEnvironmentDbRow, type FeatureFilter, type FeatureSummary, type Tag } from './feature.read-model';
import { checkAndInsertFeature, countActiveFeaturesForLimit, insertFeatureRows } from './feature.store';
import { applyJsonPatch } from './json-patch';

export interface FeatureType {
  id: string;
  name: string;
  description: string | null;
  lifetimeDays: number | null;
}

const typeId = z.string().min(1).max(100);
const metadataFields = {
  type: typeId.optional(),
  description: description.nullable().optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
};
// "." and ".." are URL friendly characters but not addressable path segments (URLs normalise them away), as Unleash refuses them.
const featureName = urlFriendlyName(1, 100);
export const createSchema = z.object({ name: featureName, ...metadataFields }).strict();
// Clients often send back the feature they read: `name`/`project` may be repeated but must match the path.
export const updateSchema = z.object({ name: z.string().optional(), project: z.string().optional(), archived: z.boolean().optional(), ...metadataFields }).strict();
export const validateSchema = z.object({ name: featureName, projectId: z.string().min(1).max(100).optional() }).strict();
export const tagSchema = z.object({ type: urlFriendlyName(2, 50).optional(), value: z.string().trim().min(2).max(50) }).strict();
export const namesSchema = z.object({ features: z.array(z.string().min(1).max(100)).min(1).max(1000) }).strict();
export const staleSchema = z.object({ features: z.array(z.string().min(1).max(100)).min(1).max(1000), stale: z.boolean() }).strict();
const dependencySchema = z.object({
  feature: z.string().min(1).max(100),
  enabled: z.boolean().optional(),
  variants: z.array(z.string().min(1).max(100)).max(100).optional(),
}).strict();
/** The payload of a dependency, as a change request's addDependency change carries it (issue 12). */
export const dependencyPayloadSchema = dependencySchema;
export const cloneSchema = z.object({ name: featureName, replaceGroupId: z.boolean().optional() }).passthrough();
export const lifetimeSchema = z.object({ lifetimeDays: z.number().int().min(1).max(100_000).nullable() }).strict();

export type CreateFeatureInput = z.input<typeof createSchema>;
export type UpdateFeatureInput = z.input<typeof updateSchema>;

type Metadata = Pick<FeatureSummary, 'name' | 'project' | 'type' | 'description' | 'impressionData' | 'stale' | 'archived'>;
const metadataOf = (f: FeatureSummary): Metadata => ({
  name: f.name, project: f.project, type: f.type, description: f.description, impressionData: f.impressionData, stale: f.stale, archived: f.archived,
});

/**
 * The GraphQL feature list loads a project's overview that is not current only for a project of at most this many
 * features: a cold load of 1000 features takes about 28 ms on PostgreSQL (p50), so this bounds it near 60 ms once per
 * change. A page of a larger project is read by its own queries unless its overview is current (REST's list loads it
 * whatever its size).
 */
export const OVERVIEW_LOAD_LIMIT = 2000;

export class FeatureService {
  readonly read: FeatureReadModel;

  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
    private readonly overviews: FeatureOverviewCache = new FeatureOverviewCache(),
  ) {
    this.read = new FeatureReadModel(em);
  }

  // ---- reads -------------------------------------------------------------------------------------------------

  /**
   * REST `GET /projects/:p/features`, serialized: the project's active features with their environments (without
   * strategies) and tags, in Unleash's overview shape. Answered from the project's cached overview while nothing it
   * shows has changed; 404 for an unknown project.
   */
  async projectFeatureListBody(project: string): Promise<Buffer> {
    return (await this.overviews.get(this.em, project)).listBody();
  }

  /**
   * The first `limit` features (by name) of each of several projects that match `filter`, in one batch: the GraphQL
   * project feature list. A page of active features without a text filter comes from the project's cached overview,
   * as REST's list does, with its features' environments and tags; the queries answer the rest: other filters, a cursor
   * naming a feature the overview does not list, and a project whose overview is not current and that had more than
   * OVERVIEW_LOAD_LIMIT features at its last load.
   */
  async projectFeaturePages(projects: readonly string[], filter: Omit<FeatureFilter, 'project' | 'names' | 'limit'>, limit: number): Promise<Map<string, ProjectFeaturePage>> {
    const out = new Map<string, ProjectFeaturePage>();
    let remaining = projects;
    if (!filter.archived && !filter.query) {
      const overviews = await this.overviews.getMany(this.em, projects, { loadUpTo: OVERVIEW_LOAD_LIMIT });
      remaining = projects.filter((p) => {
        const page = overviews.get(p)?.page(filter.type, filter.after, limit);
        if (page) out.set(p, page);
        return !page;
      });
    }
    if (remaining.length > 0) {
      for (const [p, features] of await this.read.summariesByProject(remaining, filter, limit)) out.set(p, { features });
    }
    return out;
  }

  /** One active feature of a project, everything nested. */
  async getProjectFeature(project: string, name: string): Promise<Feature> {
    const summary = await loadProjectFeature(this.em, project, name);
    return (await this.read.features([summary]))[0];
  }

  /**
   * Archived features, optionally of one project (an unknown project gives an empty list), each with the environments
   * it was last seen in (`{name, lastSeenAt, enabled: false}`), as Unleash lists them.
   */
  async listArchived(project?: string): Promise<Array<FeatureSummary & { environments: Array<{ name: string; lastSeenAt: string; enabled: false }> }>> {
    const features = await this.read.summaries({ project, archived: true });
    const seen: Array<{ feature_name: string; environment: string; last_seen_at: Date }> = features.length === 0 ? [] : await this.em.execute(
      `select feature_name, environment, last_seen_at from feature_environments where last_seen_at is not null and feature_name in (?) order by environment`,
      [features.map((f) => f.name)]);
    return features.map((f) => ({
      ...f,
      environments: seen.filter((r) => r.feature_name === f.name).map((r) => ({ name: r.environment, lastSeenAt: new Date(r.last_seen_at).toISOString(), enabled: false as const })),
    }));
  }

  async featureTypes(): Promise<FeatureType[]> {
    const rows = await this.em.find(FeatureTypeSchema, {}, { orderBy: { id: 'asc' } });
    return rows.map((r) => ({ id: r.id, name: r.name, description: r.description ?? null, lifetimeDays: r.lifetimeDays ?? null }));
  }

  async tags(name: string): Promise<Tag[]> {
    await loadFeature(this.em, name);
    return (await this.read.tags([name])).get(name) ?? [];
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------------

  async create(project: string, input: CreateFeatureInput): Promise<Feature> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_FEATURE', { project });
    const created = await change(this.em, this.principal, (tx, emit) => this.insertFeature(tx, emit, project, { ...data, stale: data.stale ?? false }));
    // A new feature has nothing but its row and its (disabled) environments, which the insert returned: no read-back.
    return this.read.newFeature(created.summary, created.environments);
  }

  /** Whether `name` is free for a new feature (and fits the project's naming pattern when `projectId` is given). */
  async validateName(input: unknown): Promise<void> {
    const { name, projectId } = parse(validateSchema, input);
    await this.assertNameFree(this.em, name);
    if (projectId) {
      const project = await loadProject(this.em, projectId);
      checkFeatureName(toProject(project).featureNaming, name);
    }
  }

  /** PUT: replaces the metadata given (type, description, impressionData, stale); absent ones are untouched. */
  async update(project: string, name: string, input: UpdateFeatureInput): Promise<Feature> {
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_FEATURE', { project });
    return this.modifyMetadata(project, name, (before) => {
      this.assertIdentity(before, data.name, data.project, data.archived);
      return {
        ...before,
        type: data.type ?? before.type,
        description: data.description !== undefined ? data.description : before.description,
        impressionData: data.impressionData ?? before.impressionData,
        stale: data.stale ?? before.stale,
      };
    });
  }

  /** PATCH: an RFC 6902 patch over `{name, project, type, description, impressionData, stale, archived}`. */
  async patch(project: string, name: string, operations: unknown): Promise<Feature> {
    await this.access.check('UPDATE_FEATURE', { project });
    return this.modifyMetadata(project, name, (before) => {
      const patched = applyJsonPatch(before, operations);
      const data = parse(updateSchema, patched);
      this.assertIdentity(before, data.name, data.project, data.archived);
      return {
        ...before,
        type: data.type ?? before.type,
        description: data.description === undefined ? null : data.description,
        impressionData: data.impressionData ?? false,
        stale: data.stale ?? false,
      };
    });
  }

  async setStale(name: string, stale: boolean): Promise<Feature> {
    const feature = await loadFeature(this.em, name, { archived: false });
    await this.access.check('UPDATE_FEATURE', { project: feature.project });
    return this.modifyMetadata(feature.project, name, (before) => ({ ...before, stale }));
  }

  /** Bulk stale on/off for features of one project, in one transaction. */
  async setStaleMany(project: string, input: unknown): Promise<void> {
    const { features, stale } = parse(staleSchema, input);
    await this.access.check('UPDATE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await lockFeatures(tx, features);
      for (const name of new Set(features)) {
        const f = await loadProjectFeature(tx, project, name, true);
        if (f.stale === stale) continue;
        await tx.execute(`update features set stale = ? where name = ?`, [stale, name]);
        emit({ type: stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: name });
      }
    });
  }

  /** DELETE on a project feature: archives it (202). A feature other active features depend on cannot be archived. */
  async archive(project: string, name: string): Promise<void> {
    await this.archiveMany(project, { features: [name] });
  }

  async archiveMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('DELETE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      for (const name of names) await loadProjectFeature(tx, project, name, true);
      const blocking: Array<{ parent: string; child: string }> = await tx.execute(
        `select d.parent, d.child from feature_dependencies d join features c on c.name = d.child
          where d.parent in (?) and c.archived_at is null and d.child not in (?) order by d.parent, d.child`, [names, names]);
      if (blocking.length > 0) {
        throw new InvalidOperationError(`You can not archive ${blocking[0].parent}: other features depend on it (${[...new Set(blocking.map((b) => b.child))].join(', ')}). Remove those dependencies or archive the dependent features too.`);
      }
      const deps: Array<{ child: string }> = await tx.execute(`delete from feature_dependencies where child in (?) returning child`, [names]);
      await tx.execute(`update features set archived_at = now() where name in (?)`, [names]);
      for (const name of names) {
        if (deps.some((d) => d.child === name)) emit({ type: 'feature-dependencies-removed', project, featureName: name });
        emit({ type: 'feature-archived', project, featureName: name });
      }
    });
  }

  /** Brings an archived feature back, switched off in every environment (reviving never silently turns anything on). */
  async revive(name: string): Promise<void> {
    const feature = await loadFeature(this.em, name, { archived: true });
    await this.reviveMany(feature.project, { features: [name] });
  }

  async reviveMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('UPDATE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      for (const name of names) {
        const f = await loadFeature(tx, name, { archived: true, lock: true });
        if (f.project !== project) throw new NotFoundError(`There's no archived feature named "${name}" in project "${project}".`);
      }
      await tx.execute(`update features set archived_at = null where name in (?)`, [names]);
      await tx.execute(`update feature_environments set enabled = false where feature_name in (?)`, [names]);
      for (const name of names) emit({ type: 'feature-revived', project, featureName: name });
    });
  }

  /** Deletes an archived feature for good (DELETE_FEATURE); its strategies, tags and configuration go with it. */
  async deleteArchived(name: string): Promise<void> {
    const feature = await loadFeature(this.em, name);
    await this.deleteMany(feature.project, { features: [name] });
  }

  async deleteMany(project: string, input: unknown): Promise<void> {
    const { features } = parse(namesSchema, input);
    await this.access.check('DELETE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      const names = [...new Set(features)];
      await lockFeatures(tx, names);
      const found: FeatureSummary[] = [];
      for (const name of names) {
        const f = await loadFeature(tx, name, { lock: true });
        if (f.project !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
        if (!f.archived) throw new InvalidOperationError(`The feature ${name} must be archived before it can be deleted.`);
        found.push(f);
      }
      const tags = await new FeatureReadModel(tx).tags(names);
      const stillUsed: Array<{ parent: string; child: string }> = await tx.execute(
        `select parent, child from feature_dependencies where parent in (?) and child not in (?) order by parent`, [names, names]);
      if (stillUsed.length > 0) throw new InvalidOperationError(`You can not delete ${stillUsed[0].parent}: the feature ${stillUsed[0].child} depends on it.`);
      // Events first: they read the feature's tags, which go with the feature.
      for (const f of found) emit({ type: 'feature-deleted', project, featureName: f.name, preData: featureEventData(f), tags: tags.get(f.name) ?? [] });
      await tx.execute(`delete from features where name in (?)`, [names]);
    });
  }

  /** Spec endpoint 5 / D3. The source is looked up in any project; the copy goes into `project`. */
  async clone(project: string, source: string, input: unknown): Promise<Feature> {
    const { name, replaceGroupId } = parse(cloneSchema, input);
    await this.access.check('CREATE_FEATURE', { project });
    // The copy creates strategies and dependencies too: the caller needs the permissions adding them directly would need.
    const copied: Array<{ environment: string | null; dependency: boolean }> = await this.em.execute(
      `select distinct environment, false as dependency from feature_strategies where feature_name = ?
       union all select null, true from feature_dependencies where child = ? limit 100`, [source, source]);
    for (const c of copied) {
      if (c.dependency) await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
      else await this.access.check('CREATE_FEATURE_STRATEGY', { project, environment: c.environment as string });
    }
    const created = await change(this.em, this.principal, async (tx, emit) => {
      await this.assertNameFree(tx, name);
      // The target project first, then the source, shared (rule 3 in change.ts): the copy is of one state of the
      // source, since every change of it waits until the copy is done.
      await loadProject(tx, project, 'share');
      await refuseCloneIntoChangeRequestProject(tx, project);
      const original = await loadFeature(tx, source, { archived: false, lock: 'share' });
      const { summary } = await this.insertFeature(tx, emit, project, {
        name, type: original.type, description: original.description, impressionData: original.impressionData, stale: false,
      });
      const linked: Array<{ environment_name: string }> = await tx.execute(`select environment_name from project_environments where project_id = ?`, [project]);
      const targetEnvs = new Set(linked.map((r) => r.environment_name));
      // Environment variants (copied without an event, as Unleash does), then every strategy with its segments.
      const envRows: Array<{ environment: string; variants: unknown[] }> = await tx.execute(
        `select environment, variants from feature_environments where feature_name = ?`, [source]);
      for (const e of envRows) {
        if (!targetEnvs.has(e.environment) || (e.variants ?? []).length === 0) continue;
        await tx.execute(`update feature_environments set variants = ?::jsonb where feature_name = ? and environment = ?`, [JSON.stringify(e.variants), name, e.environment]);
      }
      const sourceModel = new FeatureReadModel(tx);
      const strategies = [...(await sourceModel.strategies([source])).entries()]
        .map(([key, list]) => ({ environment: key.split('\u0000')[1], list }));
      // A segment of another project cannot be used in the target project (the rule adding a strategy enforces).
      const segmentIds = [...new Set(strategies.flatMap(({ list }) => list.flatMap((s) => s.segments)))];
      const foreign: Array<{ id: number; project: string }> = segmentIds.length === 0 ? [] : await tx.execute(
        `select id, project from segments where id in (?) and project is not null and project <> ? order by id`, [segmentIds, project]);
      if (foreign.length > 0) {
        throw ValidationError.single('name', `The feature ${source} uses the segment ${foreign[0].id} of project ${foreign[0].project}, which cannot be used in project ${project}.`);
      }
      for (const { environment, list } of strategies) {
        if (!targetEnvs.has(environment)) {
          throw ValidationError.single('name', `The feature ${source} has strategies in the environment "${environment}", which is not enabled in project "${project}".`);
        }
        for (const s of list) {
          const parameters = { ...s.parameters };
          if (replaceGroupId !== false && Object.hasOwn(parameters, 'groupId')) parameters.groupId = name;
          await writeStrategy(tx, emit, project, environment, { ...s, id: randomUUID(), featureName: name, parameters });
        }
      }
      // Parent dependencies, when the parent lives in the target project (dependencies never cross projects).
      const deps = (await sourceModel.dependencies([source])).get(source) ?? [];
      for (const d of deps) {
        // The parent must stay until the dependency is in (deleting it waits, then sees the new dependency).
        const parent = await tx.execute(`select project from features where name = ? for key share`, [d.feature]);
        if (parent[0]?.project !== project) continue;
        await tx.execute(`insert into feature_dependencies (parent, child, enabled, variants) values (?, ?, ?, ?::jsonb)`,
          [d.feature, name, d.enabled, JSON.stringify(d.variants ?? [])]);
        emit({ type: 'feature-dependency-added', project, featureName: name, data: d });
      }
      return summary;
    });
    return (await this.read.features([created]))[0];
  }

  // ---- tags --------------------------------------------------------------------------------------------------

  /** Tags a feature, creating the tag when it does not exist yet (event tag-created, then feature-tagged). */
  async addTag(name: string, input: unknown): Promise<Tag> {
    const data = parse(tagSchema, input);
    const tag = { type: data.type ?? 'simple', value: data.value };
    const feature = await loadFeature(this.em, name);
    await this.access.check('UPDATE_FEATURE', { project: feature.project });
    return change(this.em, this.principal, async (tx, emit) => {
      // The feature and the tag type must stay until the tag is on (a concurrent delete of either waits).
      await loadFeature(tx, name, { lock: 'key share' });
      const type = await tx.execute(`select 1 from tag_types where name = ? for key share`, [tag.type]);
      if (type.length === 0) throw ValidationError.single('type', `Tag type '${tag.type}' does not exist`);
      const createdTag = await tx.execute(`insert into tags (type, value) values (?, ?) on conflict do nothing returning type`, [tag.type, tag.value]);
      if (createdTag.length > 0) emit({ type: 'tag-created', data: tag });
      const linked = await tx.execute(
        `insert into feature_tags (feature_name, tag_type, tag_value, created_by_user_id) values (?, ?, ?, ?) on conflict do nothing returning feature_name`,
        [name, tag.type, tag.value, this.principal.userId]);
      if (linked.length === 0) throw new NameExistsError(`The feature ${name} already has the tag ${tag.type}:${tag.value}`);
      emit({ type: 'feature-tagged', project: feature.project, featureName: name, data: tag });
      return tag;
    });
  }

  async removeTag(name: string, type: string, value: string): Promise<void> {
    const feature = await loadFeature(this.em, name);
    await this.access.check('UPDATE_FEATURE', { project: feature.project });
    await change(this.em, this.principal, async (tx, emit) => {
      const removed = await tx.execute(`delete from feature_tags where feature_name = ? and tag_type = ? and tag_value = ? returning feature_name`, [name, type, value]);
      if (removed.length === 0) throw new NotFoundError(`The feature ${name} has no tag ${type}:${value}`);
      emit({ type: 'feature-untagged', project: feature.project, featureName: name, preData: { type, value } });
    });
  }

  // ---- dependencies ------------------------------------------------------------------------------------------

  /**
   * Adds (or replaces) a parent dependency. The parent must be an active feature of the same project; dependencies
   * are one level deep (a parent cannot depend on anything and a child cannot be a parent), so no cycle can form.
   */
  async addDependency(project: string, child: string, input: unknown): Promise<void> {
    const data = parse(dependencySchema, input);
    const enabled = data.enabled ?? true;
    const variants = data.variants ?? [];
    if (!enabled && variants.length > 0) throw ValidationError.single('variants', 'Variants can only be required of a parent that must be enabled (`enabled: true`).');
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      // Lock child and parent: any two concurrent changes that share a feature run one after the other, so the
      // one-level checks below cannot be raced into a chain.
      await lockFeatures(tx, [child, data.feature]);
      await loadProjectFeature(tx, project, child, true);
      if (data.feature === child) throw ValidationError.single('feature', 'A feature cannot depend on itself.');
      const parent = await loadFeature(tx, data.feature, { archived: false }).catch(() => {
        throw ValidationError.single('feature', `The parent feature ${data.feature} does not exist or is archived.`);
      });
      if (parent.project !== project) throw ValidationError.single('feature', `The parent feature ${data.feature} is in project ${parent.project}; dependencies must stay within project ${project}.`);
      const [{ parent_has_parents, child_has_children }] = await tx.execute(
        `select exists (select 1 from feature_dependencies where child = ?) as parent_has_parents,
                exists (select 1 from feature_dependencies where parent = ?) as child_has_children`, [data.feature, child]);
      if (parent_has_parents) throw new InvalidOperationError(`The feature ${data.feature} depends on other features, so it cannot be a parent (dependencies are one level deep).`);
      if (child_has_children) throw new InvalidOperationError(`Other features depend on ${child}, so it cannot depend on another feature (dependencies are one level deep).`);
      await tx.execute(
        `insert into feature_dependencies (parent, child, enabled, variants) values (?, ?, ?, ?::jsonb)
         on conflict (parent, child) do update set enabled = excluded.enabled, variants = excluded.variants`,
        [data.feature, child, enabled, JSON.stringify(variants)]);
      emit({ type: 'feature-dependency-added', project, featureName: child, data: { feature: data.feature, enabled, ...(variants.length ? { variants } : {}) } });
    });
  }

  async removeDependency(project: string, child: string, parent: string): Promise<void> {
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      await loadProjectFeature(tx, project, child);
      const removed = await tx.execute(`delete from feature_dependencies where child = ? and parent = ? returning parent`, [child, parent]);
      if (removed.length === 0) throw new NotFoundError(`The feature ${child} does not depend on ${parent}`);
      emit({ type: 'feature-dependency-removed', project, featureName: child, data: { feature: parent } });
    });
  }

  async removeDependencies(project: string, child: string): Promise<void> {
    await this.access.check('UPDATE_FEATURE_DEPENDENCY', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      await loadProjectFeature(tx, project, child);
      const removed = await tx.execute(`delete from feature_dependencies where child = ? returning parent`, [child]);
      if (removed.length > 0) emit({ type: 'feature-dependencies-removed', project, featureName: child });
    });
  }

  // ---- feature types -----------------------------------------------------------------------------------------

  /** Changes how long features of a type live before they count as potentially stale (ADMIN). */
  async updateFeatureTypeLifetime(id: string, input: unknown): Promise<FeatureType> {
    const { lifetimeDays } = parse(lifetimeSchema, input);
    await this.access.check('ADMIN');
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await lockedFindOne(tx, FeatureTypeSchema, { id });
      if (!row) throw new NotFoundError(`Could not find feature type with id ${id}`);
      const before = { id: row.id, name: row.name, description: row.description ?? null, lifetimeDays: row.lifetimeDays ?? null };
      row.lifetimeDays = lifetimeDays;
      const after = { ...before, lifetimeDays };
      if (!sameJson(before, after)) emit({ type: 'feature-type-updated', data: after, preData: before });
      return after;
    });
  }

  // ---- internals ---------------------------------------------------------------------------------------------

  private async assertNameFree(em: EntityManager, name: string): Promise<void> {
    const rows: Array<{ archived: boolean }> = await em.execute(`select archived_at is not null as archived from features where name = ?`, [name]);
    if (rows.length > 0) throw new NameExistsError(rows[0].archived ? 'An archived toggle with that name already exists' : 'A toggle with that name already exists');
  }

  /**
   * Creates the feature row and its (disabled) configuration in every environment of the project, returning both.
   * Event feature-created.
   */
  private async insertFeature(
    tx: EntityManager, emit: (e: EventInput) => void, project: string,
    data: { name: string; type?: string; description?: string | null; impressionData?: boolean; stale: boolean },
  ): Promise<{ summary: FeatureSummary; environments: FeatureEnvironmentDbRow[] }> {
    const type = data.type ?? 'release';
    const values = [data.name, project, type, data.description ?? null, data.stale, data.impressionData ?? false, new Date(), this.principal.userId];
    // One statement reads the project shared (its naming rules, feature limit and environment links stay as read until
    // the feature is in), whether the name is taken and whether the type exists, and inserts the feature when nothing
    // there refuses it and the project has no limit. The rules are then judged in their documented order; one that
    // refuses throws, which rolls the insert back with the transaction.
    const row = await checkAndInsertFeature(tx, project, type, values);
    if (!row) throw new NotFoundError(`Project with id ${project} does not exist`);
    if (row.name_taken !== null) throw new NameExistsError(row.name_taken ? 'An archived toggle with that name already exists' : 'A toggle with that name already exists');
    checkFeatureName({ pattern: row.feature_naming_pattern, example: row.feature_naming_example, description: row.feature_naming_description }, data.name);
    if (!row.type_known) await this.assertType(tx, type);
    let inserted = row.inserted;
    if (row.feature_limit !== null) {
      // Count-then-insert: creates in a limited project take turns (an advisory lock, since the project row is only
      // shared), or concurrent ones would all see room for one more. The count runs after the lock is granted, so it
      // sees every feature created by the ones before.
      const count = await countActiveFeaturesForLimit(tx, project);
      if (count >= row.feature_limit) throw new InvalidOperationError('You have reached the maximum number of feature toggles for this project.');
      inserted = await insertFeatureRows(tx, values);
    }
    // `on conflict do nothing`: a concurrent create of the same name waits for the other transaction and then
    // inserts nothing, so the loser gets the 409 instead of a unique-violation 500.
    if (!inserted) {
      await this.assertNameFree(tx, data.name); // throws with the active/archived message
      throw new NameExistsError('A toggle with that name already exists');
    }
    const summary = toFeatureSummary(inserted);
    emit({ type: 'feature-created', project, featureName: data.name, data: featureEventData(summary) });
    return { summary, environments: inserted.environments };
  }

  private async assertType(em: EntityManager, type: string): Promise<void> {
    const types = await em.find(FeatureTypeSchema, {}, { orderBy: { id: 'asc' } });
    if (!types.some((t) => t.id === type)) {
      throw ValidationError.single('type', `The \`type\` property must be one of the feature types: ${types.map((t) => JSON.stringify(t.id)).join(', ')}. You sent ${JSON.stringify(type)}.`);
    }
  }

  private assertIdentity(before: Metadata, name?: string, project?: string, archived?: boolean): void {
    if (name !== undefined && name !== before.name) throw ValidationError.single('name', 'The `name` property must equal the feature name in the path; a feature cannot be renamed.');
    if (project !== undefined && project !== before.project) throw ValidationError.single('project', 'The `project` property must equal the project in the path; move a feature with the project-change endpoint.');
    if (archived !== undefined && archived !== before.archived) throw ValidationError.single('archived', 'Archive a feature with DELETE and revive it from the archive; `archived` cannot be changed here.');
  }

  /** Applies a metadata change; writes feature-metadata-updated (and stale on/off) only for what really changed. */
  private async modifyMetadata(project: string, name: string, apply: (before: Metadata) => Metadata): Promise<Feature> {
    const summary = await change(this.em, this.principal, async (tx, emit) => {
      const current = await loadProjectFeature(tx, project, name, true);
      const before = metadataOf(current);
      const after = apply(before);
      if (after.type !== before.type) await this.assertType(tx, after.type);
      const metadataChanged = after.type !== before.type || after.description !== before.description || after.impressionData !== before.impressionData;
      if (!metadataChanged && after.stale === before.stale) return current;
      await tx.execute(`update features set type = ?, description = ?, impression_data = ?, stale = ? where name = ?`,
        [after.type, after.description, after.impressionData, after.stale, name]);
      const updated = await loadFeature(tx, name);
      if (metadataChanged) emit({ type: 'feature-metadata-updated', project, featureName: name, data: featureEventData(updated), preData: featureEventData(current) });
      if (after.stale !== before.stale) emit({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: name });
      return updated;
    });
    return (await this.read.features([summary]))[0];
  }
}
