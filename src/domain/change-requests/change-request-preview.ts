/**
 * Issue 12 part 9, the pure half of "preview before approving": a change request's changes applied to an in-memory
 * copy of one environment's evaluation input (what PlaygroundReadModel.load gives), with the rules the direct changes
 * follow (FeatureStrategyService, FeatureService, SegmentService) and the apply order of a request:
 *   phase 1 every change but updateEnabled and archiveFeature, phase 2 updateEnabled, phase 3 archiveFeature,
 *   each phase in change id order.
 * No ORM and no I/O: change-request-preview.read-model.ts loads the input, the service evaluates the result.
 *
 * The input is never changed: a feature is copied the first time a change touches it, and a strategy, dependency or
 * segment that changes is replaced by a new object (compiled snapshots keep references to their input).
 *
 * A change the apply would refuse (its feature archived since, a strategy gone, weights that do not add up, a
 * dependency the one-level rule forbids, ...) is left out, and said so in `warnings`: the preview shows what the other
 * changes do, and the reviewer learns that applying would fail.
 */
import { randomUUID } from 'node:crypto';
import { normalizeConstraint } from '../features/constraints';
import type { Constraint } from '../features/constraint.shapes';
import { defaultStrategyFrom, mergeStrategyUpdate, PERCENT_PARAMETERS } from '../features/feature-strategy.rules';
import { toFeatureVariants, toStrategyVariants } from '../features/variants';
import type { StrategyVariant } from '../features/variant.shapes';
import { DomainError, ValidationError } from '../errors';
import { sameJson } from '../validation';
import type { PlaygroundDependencyInput, PlaygroundFeatureInput, PlaygroundSegmentInput, PlaygroundStrategyInput } from '../playground/types';
import type { ChangeInput } from './change-request.schemas';
import type { PreviewReason, PreviewWarning } from './change-request-preview.shapes';

/** One change of the request, its payload validated as its action's shape. */
export type PreviewChange = ChangeInput & { id: number };

/** What the service loads besides the environment's features and segments. */
export interface PreviewWorld {
  project: string;
  environment: string;
  /** Every active feature in the environment, in snapshot order (PlaygroundReadModel.load with all projects). */
  features: readonly PlaygroundFeatureInput[];
  segments: readonly PlaygroundSegmentInput[];
  /** Project of each segment (null: global). */
  segmentProjects: ReadonlyMap<number, string | null>;
  /** Links of each segment to strategies the preview does not see (other environments, archived features). */
  segmentUseElsewhere: ReadonlyMap<number, number>;
  /** Names of the strategy definitions. */
  strategyNames: ReadonlySet<string>;
  /** The project environment's default strategy (stored jsonb) and the project's default stickiness. */
  defaultStrategy: Record<string, unknown> | null;
  defaultStickiness: string;
  /** Position of each existing strategy of the changed features by (created_at, id): the database's tie-break after sort_order. */
  creationRank: ReadonlyMap<string, number>;
}

export interface PreviewApplied {
  /** The environment's features after the request, in snapshot order (archived ones left out). */
  features: PlaygroundFeatureInput[];
  segments: PlaygroundSegmentInput[];
  /** The features the preview shows, in order: those named by changes (first change first), then the others. */
  affected: Map<string, Set<PreviewReason>>;
  /** Features the request archives. */
  archived: Set<string>;
  /** In change id order. */
  warnings: PreviewWarning[];
}

/** A change the apply would refuse; caught per change and turned into a warning. */
class Refusal extends Error {}

const refuse = (message: string): never => {
  throw new Refusal(message);
};

type StrategyFields = {
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  sortOrder?: number;
  parameters?: Record<string, string>;
  constraints?: ReadonlyArray<Parameters<typeof normalizeConstraint>[0]>;
  variants?: ReadonlyArray<Omit<StrategyVariant, 'weight' | 'weightType' | 'stickiness'> & Partial<StrategyVariant>>;
  segments?: readonly number[];
};

/** What the audit log compares of a strategy: an update that leaves it equal is no change (FeatureStrategyService.modify). */
const strategyData = (s: PlaygroundStrategyInput) => ({
  id: s.id, name: s.name, title: s.title ?? null, disabled: s.disabled, constraints: s.constraints, parameters: s.parameters,
  variants: s.variants, sortOrder: s.sortOrder, segments: s.segments,
});

/** The mutable state of one preview. */
class Preview {
  private readonly original = new Map<string, PlaygroundFeatureInput>();
  /** Copies of the features changes touched (copy on first write). */
  private readonly copies = new Map<string, PlaygroundFeatureInput>();
  private readonly segments = new Map<number, PlaygroundSegmentInput>();
  private readonly segmentProjects: Map<number, string | null>;
  private readonly rank = new Map<string, number>();
  private nextRank: number;
  readonly archived = new Set<string>();
  readonly changedSegments = new Set<number>();
  readonly warnings: PreviewWarning[] = [];

  constructor(private readonly world: PreviewWorld) {
    for (const f of world.features) if (!this.original.has(f.name)) this.original.set(f.name, f);
    for (const s of world.segments) this.segments.set(s.id, s);
    this.segmentProjects = new Map(world.segmentProjects);
    for (const [id, r] of world.creationRank) this.rank.set(id, r);
    this.nextRank = world.creationRank.size;
  }

  /** The feature as the changes so far left it; undefined when it does not exist, is archived, or is archived by the request. */
  current(name: string): PlaygroundFeatureInput | undefined {
    if (this.archived.has(name)) return undefined;
    return this.copies.get(name) ?? this.original.get(name);
  }

  /** The feature a change names, ready to be changed: it must exist, be active and belong to the request's project. */
  private writable(name: string): PlaygroundFeatureInput {
    const found = this.current(name);
    if (!found) return refuse(`Could not find feature toggle with name ${name}`);
    if (found.project !== this.world.project) return refuse(`There's no feature named "${name}" in project "${this.world.project}".`);
    let copy = this.copies.get(name);
    if (!copy) {
      copy = { ...found, strategies: [...found.strategies], variants: found.variants, dependencies: [...found.dependencies] };
      this.copies.set(name, copy);
    }
    return copy;
  }

  private strategyIndex(f: PlaygroundFeatureInput, id: string): number {
    const i = f.strategies.findIndex((s) => s.id === id);
    if (i < 0) refuse(`Could not find strategy with id ${id} for feature ${f.name} in environment ${this.world.environment}`);
    return i;
  }

  /** A strategy in stored form, checked as FeatureStrategyService.validate checks it (definitions, percentages, segments, variants). */
  private validate(feature: PlaygroundFeatureInput, data: StrategyFields, id: string): PlaygroundStrategyInput {
    if (!this.world.strategyNames.has(data.name)) refuse(`Could not find strategy type with name ${data.name}`);
    const parameters: Record<string, string> = { ...(data.parameters ?? {}) };
    const percentKey = PERCENT_PARAMETERS.get(data.name);
    if (percentKey && Object.hasOwn(parameters, percentKey)) {
      const n = Number(parameters[percentKey]);
      if (parameters[percentKey].trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) {
        refuse(`The \`${percentKey}\` parameter must be a number from 0 to 100. You sent ${JSON.stringify(parameters[percentKey])}.`);
      }
    }
    for (const segmentId of data.segments ?? []) {
      if (!this.segments.has(segmentId)) refuse(`There is no segment with id ${segmentId}.`);
      const owner = this.segmentProjects.get(segmentId) ?? null;
      if (owner !== null && owner !== this.world.project) refuse(`The segment ${segmentId} belongs to project ${owner} and cannot be used in project ${this.world.project}.`);
    }
    const segments = [...new Set(data.segments ?? [])].sort((a, b) => a - b);
    const constraints: Constraint[] = (data.constraints ?? []).map((c) => normalizeConstraint(c));
    const variants = toStrategyVariants((data.variants ?? []) as never, 'variants');
    return {
      id, name: data.name, title: data.title ?? null, disabled: data.disabled ?? false, sortOrder: data.sortOrder ?? 0,
      parameters, constraints, variants, segments,
    } satisfies PlaygroundStrategyInput & { title: string | null };
  }

  /** FeatureStrategyService.insert: the next sort order when none is given, a new id, checked; added last. */
  private insert(f: PlaygroundFeatureInput, data: StrategyFields): void {
    const sortOrder = data.sortOrder ?? (f.strategies.length === 0 ? 0 : Math.max(...f.strategies.map((s) => s.sortOrder)) + 1);
    const strategy = this.validate(f, { ...data, sortOrder }, randomUUID());
    this.rank.set(strategy.id, this.nextRank++);
    f.strategies.push(strategy);
  }

  /** disableWithoutActiveStrategies: an enabled environment left without a strategy that is not disabled is switched off. */
  private switchOffWithoutActive(f: PlaygroundFeatureInput): void {
    if (f.enabled && !f.strategies.some((s) => !s.disabled)) f.enabled = false;
  }

  private sameFeatureAndEnvironment(data: { featureName?: string; environment?: string }, feature: string): void {
    if (data.featureName !== undefined && data.featureName !== feature) refuse('The `featureName` property must equal the feature in the path.');
    if (data.environment !== undefined && data.environment !== this.world.environment) refuse('The `environment` property must equal the environment in the path.');
  }

  apply(c: PreviewChange): void {
    try {
      this.run(c);
    } catch (err) {
      // Refusals, and the validation errors the shared helpers (variant weights) throw, are what the apply would answer.
      if (!(err instanceof Refusal) && !(err instanceof DomainError)) throw err;
      const details = err instanceof ValidationError && err.details.length > 0 ? `: ${err.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ')}` : '';
      this.warnings.push({ changeId: c.id, action: c.action, feature: 'feature' in c ? c.feature : null, message: `${err.message}${details}` });
    }
  }

  private run(c: PreviewChange): void {
    switch (c.action) {
      case 'addStrategy': {
        const f = this.writable(c.feature);
        this.sameFeatureAndEnvironment(c.payload, c.feature);
        this.insert(f, c.payload);
        return;
      }
      case 'updateStrategy': {
        const f = this.writable(c.feature);
        const i = this.strategyIndex(f, c.payload.id);
        const current = f.strategies[i];
        const data = c.payload;
        this.sameFeatureAndEnvironment(data, c.feature);
        // FeatureStrategyService.modify: absent properties are kept, `disabled: null` is false.
        const next = this.validate(f, mergeStrategyUpdate<StrategyFields['parameters'], StrategyFields['constraints'], StrategyFields['variants'], StrategyFields['segments']>(current, data), current.id);
        if (sameJson(strategyData(current), strategyData(next))) return;
        f.strategies[i] = next;
        this.switchOffWithoutActive(f);
        return;
      }
      case 'deleteStrategy': {
        const f = this.writable(c.feature);
        f.strategies.splice(this.strategyIndex(f, c.payload.id), 1);
        this.switchOffWithoutActive(f);
        return;
      }
      case 'reorderStrategy': {
        const f = this.writable(c.feature);
        const unknown = c.payload.map((o, i) => ({ o, i })).filter(({ o }) => !f.strategies.some((s) => s.id === o.id));
        if (unknown.length > 0) {
          throw ValidationError.of(unknown.map(({ o, i }) => ({ path: `${i}/id`, message: `${o.id} is not a strategy of ${f.name} in the environment ${this.world.environment}.` })));
        }
        // One update per entry, in order: an id listed twice keeps its last sort order.
        for (const o of c.payload) {
          const i = f.strategies.findIndex((s) => s.id === o.id);
          f.strategies[i] = { ...f.strategies[i], sortOrder: o.sortOrder };
        }
        return;
      }
      case 'patchVariant': {
        const f = this.writable(c.feature);
        f.variants = toFeatureVariants(c.payload.variants, '');
        return;
      }
      case 'addDependency': {
        const child = this.writable(c.feature);
        const enabled = c.payload.enabled ?? true;
        const variants = c.payload.variants ?? [];
        if (!enabled && variants.length > 0) refuse('Variants can only be required of a parent that must be enabled (`enabled: true`).');
        const parentName = c.payload.feature;
        if (parentName === child.name) refuse('A feature cannot depend on itself.');
        const parent = this.current(parentName);
        if (!parent) refuse(`The parent feature ${parentName} does not exist or is archived.`);
        if (parent!.project !== this.world.project) refuse(`The parent feature ${parentName} is in project ${parent!.project}; dependencies must stay within project ${this.world.project}.`);
        if (parent!.dependencies.length > 0) refuse(`The feature ${parentName} depends on other features, so it cannot be a parent (dependencies are one level deep).`);
        if (this.childrenOf(child.name).length > 0) refuse(`Other features depend on ${child.name}, so it cannot depend on another feature (dependencies are one level deep).`);
        const dependency: PlaygroundDependencyInput = { feature: parentName, enabled, ...(variants.length > 0 ? { variants } : {}) };
        const at = child.dependencies.findIndex((d) => d.feature === parentName);
        if (at >= 0) child.dependencies[at] = dependency;
        else child.dependencies.push(dependency);
        return;
      }
      case 'deleteDependency': {
        // FeatureService.removeDependencies: every parent of the feature.
        this.writable(c.feature).dependencies = [];
        return;
      }
      case 'updateSegment': {
        const current = this.segments.get(c.payload.id);
        if (!current) refuse(`Could not find segment with id ${c.payload.id}`);
        const project = c.payload.project === undefined ? this.segmentProjects.get(c.payload.id) ?? null : c.payload.project;
        if (project !== null) {
          const outside = this.strategiesUsing(c.payload.id).filter((f) => f.project !== project);
          if (outside.length > 0) refuse(`The segment ${current!.name} is used by features outside project ${project} (${outside.map((f) => f.name).join(', ')}).`);
        }
        this.segments.set(c.payload.id, {
          id: c.payload.id,
          name: c.payload.name,
          constraints: c.payload.constraints === undefined ? current!.constraints : c.payload.constraints.map((x) => normalizeConstraint(x)),
        });
        this.segmentProjects.set(c.payload.id, project);
        this.changedSegments.add(c.payload.id);
        return;
      }
      case 'deleteSegment': {
        const current = this.segments.get(c.payload.id);
        if (!current) refuse(`Could not find segment with id ${c.payload.id}`);
        const count = this.strategiesUsing(c.payload.id).reduce((n, f) => n + f.strategies.filter((s) => s.segments.includes(c.payload.id)).length, 0)
          + (this.world.segmentUseElsewhere.get(c.payload.id) ?? 0);
        if (count > 0) refuse(`The segment ${current!.name} is used by ${count} ${count === 1 ? 'strategy' : 'strategies'}; remove it from ${count === 1 ? 'that strategy' : 'those strategies'} before deleting it.`);
        this.segments.delete(c.payload.id);
        this.changedSegments.add(c.payload.id);
        return;
      }
      case 'updateEnabled': {
        const f = this.writable(c.feature);
        if (c.payload.enabled && !f.strategies.some((s) => !s.disabled)) {
          if (c.payload.shouldActivateDisabledStrategies && f.strategies.length > 0) {
            f.strategies = f.strategies.map((s) => ({ ...s, disabled: false }));
          } else {
            this.insert(f, this.defaultStrategy(f.name));
          }
        }
        f.enabled = c.payload.enabled;
        return;
      }
      case 'archiveFeature':
        // Archived together in phase 3 (see archive()).
        return;
    }
  }

  /** The strategy switching on adds (FeatureStrategyService.setEnabled): the project environment's default, or a 100 % gradual rollout. */
  private defaultStrategy(feature: string): StrategyFields {
    return defaultStrategyFrom({ default_strategy: this.world.defaultStrategy, default_stickiness: this.world.defaultStickiness }, feature);
  }

  /**
   * Phase 3: the archive changes archive their features together (FeatureService.archiveMany): a feature other active
   * features depend on can only be archived with them. An archived feature leaves evaluation, its own dependencies
   * with it.
   */
  archive(changes: readonly PreviewChange[]): void {
    const names = new Set<string>();
    for (const c of changes) {
      if (c.action !== 'archiveFeature') continue;
      const found = this.current(c.feature);
      if (found && found.project === this.world.project) names.add(c.feature);
      else this.warnings.push({ changeId: c.id, action: c.action, feature: c.feature, message: found ? `There's no feature named "${c.feature}" in project "${this.world.project}".` : `Could not find feature toggle with name ${c.feature}` });
    }
    for (const c of changes) {
      if (c.action !== 'archiveFeature' || !names.has(c.feature)) continue;
      const blocking = this.childrenOf(c.feature).filter((child) => !names.has(child.name));
      if (blocking.length > 0) {
        this.warnings.push({
          changeId: c.id, action: c.action, feature: c.feature,
          message: `You can not archive ${c.feature}: other features depend on it (${blocking.map((b) => b.name).join(', ')}). Remove those dependencies or archive the dependent features too.`,
        });
        names.delete(c.feature);
      }
    }
    for (const name of names) this.archived.add(name);
  }

  /** Active features (as the changes left them) that depend on `parent`. */
  childrenOf(parent: string): PlaygroundFeatureInput[] {
    return this.list().filter((f) => f.dependencies.some((d) => d.feature === parent));
  }

  private strategiesUsing(segment: number): PlaygroundFeatureInput[] {
    return this.list().filter((f) => f.strategies.some((s) => s.segments.includes(segment)));
  }

  /** The environment's features as the changes left them, in snapshot order. */
  list(): PlaygroundFeatureInput[] {
    const out: PlaygroundFeatureInput[] = [];
    for (const f of this.world.features) {
      const current = this.current(f.name);
      if (current) out.push(current);
    }
    return out;
  }

  /** Strategies in the order the database reads them back: sort order, then creation (new ones last, in the order added). */
  ordered(f: PlaygroundFeatureInput): PlaygroundFeatureInput {
    if (!this.copies.has(f.name)) return f;
    const rank = (s: PlaygroundStrategyInput) => this.rank.get(s.id) ?? Number.MAX_SAFE_INTEGER;
    const strategies = [...f.strategies].sort((a, b) => a.sortOrder - b.sortOrder || rank(a) - rank(b));
    return { ...f, strategies };
  }

  segmentList(): PlaygroundSegmentInput[] {
    return [...this.segments.values()].sort((a, b) => a.id - b.id);
  }
}

/** Applies a request's changes (any order given; applied in phases, by id) to a copy of one environment's input. */
export function applyChanges(world: PreviewWorld, changes: readonly PreviewChange[]): PreviewApplied {
  const sorted = [...changes].sort((a, b) => a.id - b.id);
  const preview = new Preview(world);
  for (const c of sorted) if (c.action !== 'updateEnabled' && c.action !== 'archiveFeature') preview.apply(c);
  for (const c of sorted) if (c.action === 'updateEnabled') preview.apply(c);
  preview.archive(sorted);

  const features = preview.list().map((f) => preview.ordered(f));
  const affected = new Map<string, Set<PreviewReason>>();
  const mark = (name: string, reason: PreviewReason) => {
    let reasons = affected.get(name);
    if (!reasons) affected.set(name, (reasons = new Set()));
    reasons.add(reason);
  };
  for (const c of sorted) if ('feature' in c) mark(c.feature, 'change');
  // Features whose strategies use a changed segment, before or after the request.
  if (preview.changedSegments.size > 0) {
    for (const list of [world.features, features]) {
      for (const f of list) {
        if (f.strategies.some((s) => s.segments.some((id) => preview.changedSegments.has(id)))) mark(f.name, 'segment');
      }
    }
  }
  // Features depending on one of those, before or after (dependencies are one level deep, so one pass is all).
  const changed = new Set(affected.keys());
  for (const list of [world.features, features]) {
    for (const f of list) if (f.dependencies.some((d) => changed.has(d.feature))) mark(f.name, 'parent');
  }
  const warnings = [...preview.warnings].sort((a, b) => a.changeId - b.changeId);
  return { features, segments: preview.segmentList(), affected, archived: preview.archived, warnings };
}
