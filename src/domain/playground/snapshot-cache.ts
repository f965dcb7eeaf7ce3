import type { EntityManager } from '@mikro-orm/postgresql';
import type { Kept } from '../last-known';
import { readModelVersion } from '../model-version.read-model';
import { compile, type CompiledSnapshot } from './engine';
import { PlaygroundReadModel } from './playground.read-model';

interface Entry {
  version: string;
  snapshot: CompiledSnapshot;
  /** When a read of `model_version` last found this snapshot current. */
  confirmedAt: number;
}

const snapshotKey = (environment: string, projects: readonly string[] | '*') =>
  `${environment}\u0000${projects === '*' ? '*' : JSON.stringify([...projects].sort())}`;

/**
 * Compiled evaluation snapshots per (environment, projects), kept while `model_version` (migration 0004) does not move.
 * A request then costs one tiny query instead of loading and compiling every feature. Belongs to one app instance;
 * several instances each keep their own and all compare against the same counter, so none serves stale data.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 16) {}

  /** Forgets every snapshot (the service is idle: src/idle-gc.ts). */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The last snapshot compiled for an environment and projects, whatever its version, with when it was last found
   * current: what the frontend API evaluates while the database is away (src/domain/last-known.ts).
   */
  kept(environment: string, projects: readonly string[] | '*'): Kept<CompiledSnapshot> | undefined {
    const entry = this.entries.get(snapshotKey(environment, projects));
    return entry && { value: entry.snapshot, confirmedAt: entry.confirmedAt };
  }

  async get(em: EntityManager, environments: readonly string[], projects: readonly string[] | '*'): Promise<Map<string, CompiledSnapshot>> {
    // Read the version before the data: a change committed in between makes the next request reload, never the reverse.
    const version = await readModelVersion(em);
    const key = (env: string) => snapshotKey(env, projects);
    const out = new Map<string, CompiledSnapshot>();
    const missing: string[] = [];
    for (const env of new Set(environments)) {
      const entry = this.entries.get(key(env));
      if (entry && entry.version === version) {
        out.set(env, entry.snapshot);
        entry.confirmedAt = Date.now();
        // Most recently used last: eviction takes the oldest first.
        this.entries.delete(key(env));
        this.entries.set(key(env), entry);
      } else {
        missing.push(env);
      }
    }
    if (missing.length > 0) {
      const loaded = await new PlaygroundReadModel(em).load(missing, projects);
      for (const env of missing) {
        const snapshot = compile(loaded.features.get(env) ?? [], loaded.segments);
        out.set(env, snapshot);
        this.entries.delete(key(env));
        this.entries.set(key(env), { version, snapshot, confirmedAt: Date.now() });
      }
      while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return out;
  }
}
