import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { ValidationError } from '../errors';
import { checkFeatureName } from '../projects/feature-naming';
import { FeatureOverviewCache } from '../projects/feature-overview';
import type { ProjectFeaturePage, ProjectOverview } from '../projects/feature-overview.read-model';
import { toProject } from '../projects/project.read-model';
import { loadProject } from '../projects/project.store';
import { parse, sameJson } from '../validation';
import { FeatureArchiveService } from './feature-archive.service';
import { FeatureCloneService } from './feature-clone.service';
import { assertFeatureType, assertNameFree, insertFeature } from './feature-create';
import { FeatureDependencyService } from './feature-dependency.service';
import { featureIndex, type FeatureIndexEntry } from './feature-index.read-model';
import { FeatureReadModel, toFeatureType, type FeatureFilter } from './feature.read-model';
import type { ArchivedFeature, Feature, FeatureSummary, FeatureType } from './feature.shapes';
import { createSchema, lifetimeSchema, staleSchema, updateSchema, validateSchema, type CreateFeatureInput, type UpdateFeatureInput } from './feature.schemas';
import {
  featureEventData, loadFeature, loadFeatureType, loadProjectFeature, lockFeatures, setFeatureStale, updateFeatureMetadata,
} from './feature.store';
import { FeatureTagService } from './feature-tag.service';
import type { Tag } from '../tags/tag.shapes';
import { applyJsonPatch } from './json-patch';

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

/**
 * Features: reading them, creating one, its metadata and stale flag, and feature types. The archive, cloning, tags and
 * dependencies have their own services, which this one answers for (so both doors and change requests call it alone).
 */
export class FeatureService {
  readonly read: FeatureReadModel;
  private readonly archiving: FeatureArchiveService;
  private readonly cloning: FeatureCloneService;
  private readonly tagging: FeatureTagService;
  private readonly dependencies: FeatureDependencyService;

  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
    private readonly overviews: FeatureOverviewCache = new FeatureOverviewCache(),
  ) {
    this.read = new FeatureReadModel(em);
    this.archiving = new FeatureArchiveService(em, principal, access);
    this.cloning = new FeatureCloneService(em, principal, access);
    this.tagging = new FeatureTagService(em, principal, access);
    this.dependencies = new FeatureDependencyService(em, principal, access);
  }

  // ---- reads -------------------------------------------------------------------------------------------------

  /**
   * REST `GET /projects/:p/features`: the project's overview, its active features with their environments (without
   * strategies) and tags (src/rest/project-overview.bodies.ts serializes it in Unleash's shape). Answered from the
   * project's cached overview while nothing it shows has changed; 404 for an unknown project.
   */
  async projectOverview(project: string): Promise<ProjectOverview> {
    return this.overviews.get(this.em, project);
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

  /** See FeatureArchiveService.listArchived. */
  listArchived(project?: string): Promise<ArchivedFeature[]> {
    return this.archiving.listArchived(project);
  }

  /** Every active flag of every project, one compact row each (the Flags page and the command palette search them). */
  index(): Promise<FeatureIndexEntry[]> {
    return featureIndex(this.em, Date.now());
  }

  async featureTypes(): Promise<FeatureType[]> {
    return this.read.featureTypes();
  }

  tags(name: string): Promise<Tag[]> {
    return this.tagging.tags(name);
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------------

  async create(project: string, input: CreateFeatureInput): Promise<Feature> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_FEATURE', { project });
    const created = await change(this.em, this.principal, (tx, emit) => insertFeature(tx, emit, this.principal.userId, project, { ...data, stale: data.stale ?? false }));
    // A new feature has nothing but its row and its (disabled) environments, which the insert returned: no read-back.
    return this.read.newFeature(created.summary, created.environments);
  }

  /** Whether `name` is free for a new feature (and fits the project's naming pattern when `projectId` is given). */
  async validateName(input: unknown): Promise<void> {
    const { name, projectId } = parse(validateSchema, input);
    await assertNameFree(this.em, name);
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
        await setFeatureStale(tx, name, stale);
        emit({ type: stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: name });
      }
    });
  }

  // ---- archive, clone, tags, dependencies: their own services --------------------------------------------------

  archive(project: string, name: string): Promise<void> {
    return this.archiving.archive(project, name);
  }

  archiveMany(project: string, input: unknown): Promise<void> {
    return this.archiving.archiveMany(project, input);
  }

  revive(name: string): Promise<void> {
    return this.archiving.revive(name);
  }

  reviveMany(project: string, input: unknown): Promise<void> {
    return this.archiving.reviveMany(project, input);
  }

  deleteArchived(name: string): Promise<void> {
    return this.archiving.deleteArchived(name);
  }

  deleteMany(project: string, input: unknown): Promise<void> {
    return this.archiving.deleteMany(project, input);
  }

  clone(project: string, source: string, input: unknown): Promise<Feature> {
    return this.cloning.clone(project, source, input);
  }

  addTag(name: string, input: unknown): Promise<Tag> {
    return this.tagging.addTag(name, input);
  }

  removeTag(name: string, type: string, value: string): Promise<void> {
    return this.tagging.removeTag(name, type, value);
  }

  addDependency(project: string, child: string, input: unknown): Promise<void> {
    return this.dependencies.addDependency(project, child, input);
  }

  removeDependency(project: string, child: string, parent: string): Promise<void> {
    return this.dependencies.removeDependency(project, child, parent);
  }

  removeDependencies(project: string, child: string): Promise<void> {
    return this.dependencies.removeDependencies(project, child);
  }

  // ---- feature types -----------------------------------------------------------------------------------------

  /** Changes how long features of a type live before they count as potentially stale (ADMIN). */
  async updateFeatureTypeLifetime(id: string, input: unknown): Promise<FeatureType> {
    const { lifetimeDays } = parse(lifetimeSchema, input);
    await this.access.check('ADMIN');
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadFeatureType(tx, id, 'update');
      const before = toFeatureType(row);
      row.lifetimeDays = lifetimeDays;
      const after = { ...before, lifetimeDays };
      if (!sameJson(before, after)) emit({ type: 'feature-type-updated', data: after, preData: before });
      return after;
    });
  }

  // ---- internals ---------------------------------------------------------------------------------------------

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
      if (after.type !== before.type) await assertFeatureType(tx, after.type);
      const metadataChanged = after.type !== before.type || after.description !== before.description || after.impressionData !== before.impressionData;
      if (!metadataChanged && after.stale === before.stale) return current;
      await updateFeatureMetadata(tx, name, after);
      const updated = await loadFeature(tx, name);
      if (metadataChanged) emit({ type: 'feature-metadata-updated', project, featureName: name, data: featureEventData(updated), preData: featureEventData(current) });
      if (after.stale !== before.stale) emit({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off', project, featureName: name });
      return updated;
    });
    return (await this.read.features([summary]))[0];
  }
}
