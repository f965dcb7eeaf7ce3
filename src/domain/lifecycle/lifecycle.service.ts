import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NotFoundError } from '../errors';
import { loadFeature, loadProjectFeature } from '../features/feature.store';
import { parse } from '../validation';
import { lifecycleSources, projectLifecycleCounts, type LifecycleCounts } from './lifecycle.read-model';
import { lifecycleOf, stagesOf } from './lifecycle.rules';
import { COMPLETED_STATUSES, type FeatureLifecycle, type LifecycleSource, type LifecycleStage } from './lifecycle.shapes';
import { complete, loadCompletion, uncomplete, type Completion } from './lifecycle.store';

export const completeSchema = z.object({
  status: z.enum(COMPLETED_STATUSES),
  statusValue: z.string().trim().min(1).max(200).optional(),
}).strict();
export type CompleteInput = z.input<typeof completeSchema>;

/**
 * Flag lifecycle (issue 44, Unleash 6.2's stages): reading where a flag is, and the one stage people set, completed.
 * The other stages are entered by what happens to the flag: its creation (initial), a switch-on outside production or an
 * SDK report (pre-live; written by the switch's statement and by the metrics flush), a report in production (live) and
 * its archiving (archived, its archived_at).
 */
export class LifecycleService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** The stages the flag entered, in order (REST `GET …/lifecycle`); an archived flag's included. */
  async stages(project: string, name: string): Promise<LifecycleStage[]> {
    return stagesOf(await this.source(project, name));
  }

  /** The flag's lifecycle now (GraphQL `Feature.lifecycle`, and what complete/uncomplete return). */
  async lifecycle(project: string, name: string): Promise<FeatureLifecycle> {
    return lifecycleOf(await this.source(project, name), Date.now());
  }

  /** The lifecycles of the named flags, for GraphQL's loader (flags that do not exist are left out). */
  async lifecycles(names: readonly string[]): Promise<Map<string, FeatureLifecycle>> {
    const now = Date.now();
    const out = new Map<string, FeatureLifecycle>();
    for (const [name, source] of await lifecycleSources(this.em, names)) out.set(name, lifecycleOf(source, now));
    return out;
  }

  /** How many of the project's flags are in each stage (GraphQL `Project.lifecycleCounts`). */
  projectCounts(project: string): Promise<LifecycleCounts> {
    return projectLifecycleCounts(this.em, project);
  }

  /** Marks the flag completed, kept or discarded (permission UPDATE_FEATURE); event feature-completed when it changes. */
  async complete(project: string, name: string, input: unknown): Promise<FeatureLifecycle> {
    const data = parse(completeSchema, input ?? {});
    await this.access.check('UPDATE_FEATURE', { project });
    const next: Completion = { status: data.status, statusValue: data.statusValue ?? null };
    await change(this.em, this.principal, async (tx, emit) => {
      await loadProjectFeature(tx, project, name, true);
      const before = await loadCompletion(tx, name);
      if (before && before.status === next.status && before.statusValue === next.statusValue) return;
      await complete(tx, name, next);
      emit({ type: 'feature-completed', project, featureName: name, data: next, preData: before ?? null });
    });
    return this.lifecycle(project, name);
  }

  /** Takes the completed stage back (permission UPDATE_FEATURE); event feature-uncompleted when it was completed. */
  async uncomplete(project: string, name: string): Promise<FeatureLifecycle> {
    await this.access.check('UPDATE_FEATURE', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await loadProjectFeature(tx, project, name, true);
      const before = await loadCompletion(tx, name);
      if (!before) return;
      await uncomplete(tx, name);
      emit({ type: 'feature-uncompleted', project, featureName: name, preData: before });
    });
    return this.lifecycle(project, name);
  }

  /** The flag's lifecycle data, 404 unless it is in `project` (archived or not). */
  private async source(project: string, name: string): Promise<LifecycleSource> {
    const feature = await loadFeature(this.em, name);
    if (feature.project !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
    const source = (await lifecycleSources(this.em, [name])).get(name);
    if (!source) throw new NotFoundError(`Could not find feature toggle with name ${name}`);
    return source;
  }
}
