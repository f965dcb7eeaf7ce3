import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import { loadOverviews, readOverviewVersion, type ProjectOverview } from './feature-overview.read-model';

/**
 * A project's feature overview: its non-archived features by name, each with every switched-on environment linked to
 * the project (by sort order, then name) and its tags. It is what the project feature list
 * (`GET /api/admin/projects/:p/features`) and the health report show, in Unleash's shape for both.
 *
 * Overviews are kept per project while `model_version` and `last_seen_version` (migrations 0004 and 0019) stand still:
 * together they move with every committed change of what an overview shows, whatever wrote it. A request whose
 * overview is current then costs one small query (the two counters and whether the project exists); each version is a
 * new overview object, so the REST layer serializes the list's and the report's bodies once per version by keeping
 * them with the object (src/rest/project-overview.bodies.ts). Belongs to one app instance; several instances each keep
 * their own and compare against the same counters, so none serves stale data.
 *
 * The GraphQL project feature list reads pages of the same overview (`page`), in the shapes the feature read model
 * gives, so a page of a project's active features costs no query beyond the counters either.
 */
export class FeatureOverviewCache {
  private readonly entries = new Map<string, ProjectOverview>();
  /** Loads in progress, by version: concurrent requests for the same overview share one read. */
  private readonly loading = new Map<string, Promise<ProjectOverview | undefined>>();
  /** How many features each project had at its last load, kept past eviction (forgotten past 10,000 projects). */
  private readonly sizes = new Map<string, number>();

  /**
   * At most `maxEntries` projects and `maxFeatures` features in all; the least recently used go first, the one just
   * read always stays. An entry of 1000 features in 2 environments holds about 2.3 MB of objects, 1 MB of serialized
   * bodies (kept with it by the REST layer) and, once GraphQL has read it, 0.5 MB of GraphQL shapes (heap measured
   * after full collections).
   */
  constructor(private readonly maxEntries = 32, private readonly maxFeatures = 20_000) {}

  /** Forgets every overview (the service is idle: src/idle-gc.ts); loads in progress and the projects' sizes stay. */
  clear(): void {
    this.entries.clear();
  }

  /** The overview of one project; 404 NotFoundError for an unknown project (the project routes' message). */
  async get(em: EntityManager, project: string): Promise<ProjectOverview> {
    const found = (await this.getMany(em, [project])).get(project);
    if (!found) throw new NotFoundError(`Project with id ${project} does not exist`);
    return found;
  }

  /**
   * The overviews of the projects that exist among `projects` (unknown ones are absent from the map). With `loadUpTo`,
   * an overview that is not current is loaded only if the project had at most that many features at its last load
   * (or was never loaded): a reader that needs a small part of a large project is better served by its own query than
   * by loading all of it after every change. Such projects are absent from the map too.
   */
  async getMany(em: EntityManager, projects: readonly string[], options: { loadUpTo?: number } = {}): Promise<Map<string, ProjectOverview>> {
    const out = new Map<string, ProjectOverview>();
    const ids = [...new Set(projects)];
    if (ids.length === 0) return out;
    // The counters are read before the data: a change committed in between makes the next request reload, never the
    // reverse. Which projects exist is read live, so a deleted project is never answered from memory.
    const { version, existing } = await readOverviewVersion(em, ids);
    const missing: string[] = [];
    for (const id of existing) {
      const entry = this.entries.get(id);
      if (entry && entry.version === version) {
        // Most recently used last: eviction takes the oldest first.
        this.entries.delete(id);
        this.entries.set(id, entry);
        out.set(id, entry);
      } else if (options.loadUpTo === undefined || (this.sizes.get(id) ?? 0) <= options.loadUpTo) {
        missing.push(id);
      }
    }
    if (missing.length === 0) return out;

    const pending = new Map<string, Promise<ProjectOverview | undefined>>();
    const toLoad: string[] = [];
    for (const id of missing) {
      const inFlight = this.loading.get(`${version}\u0000${id}`);
      if (inFlight) pending.set(id, inFlight);
      else toLoad.push(id);
    }
    if (toLoad.length > 0) {
      const batch = loadOverviews(em, toLoad, version);
      toLoad.forEach((id, i) => {
        const key = `${version}\u0000${id}`;
        const one = batch.then((list) => list[i]);
        this.loading.set(key, one);
        pending.set(id, one);
        // Forget the load once it settles, whatever its outcome; the caller sees a failure through `pending`.
        one.then(() => this.loading.delete(key), () => this.loading.delete(key));
      });
    }
    for (const [id, promise] of pending) {
      const entry = await promise;
      if (!entry) continue;
      out.set(id, entry);
      if (this.sizes.size >= 10_000 && !this.sizes.has(id)) this.sizes.clear();
      this.sizes.set(id, entry.features.length);
      const current = this.entries.get(id);
      // Keep the newest version only (two loads may finish out of order).
      if (!current || atLeast(entry.version, current.version)) {
        this.entries.delete(id);
        this.entries.set(id, entry);
      }
    }
    let features = 0;
    for (const entry of this.entries.values()) features += entry.features.length;
    while (this.entries.size > 1 && (this.entries.size > this.maxEntries || features > this.maxFeatures)) {
      const [oldest, entry] = this.entries.entries().next().value as [string, ProjectOverview];
      this.entries.delete(oldest);
      features -= entry.features.length;
    }
    return out;
  }
}

/** Whether version `a` is at least `b`: versions are `<model_version>.<last_seen_version>`, each part only grows. */
function atLeast(a: string, b: string): boolean {
  const [am, as] = a.split('.').map(BigInt);
  const [bm, bs] = b.split('.').map(BigInt);
  return am > bm || (am === bm && as >= bs);
}

