import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors';
import { compile, evaluate, type CompiledSnapshot } from '../playground/engine';
import { contextSchema, DEFAULT_COMBINATION_LIMIT, MAX_CONTEXT_BYTES } from '../playground/playground.service';
import type { PlaygroundContext, PlaygroundFeatureInput } from '../playground/types';
import type { PlaygroundFeatureEvaluation } from '../playground/playground.shapes';
import { parse } from '../validation';
import { applyChanges, type PreviewChange } from './change-request-preview';
import { loadPreviewWorld } from './change-request-preview.read-model';
import type { ChangeRequestPreview, PreviewConfiguration, PreviewFeature, PreviewResult, PreviewWarning } from './change-request-preview.shapes';
import type { ChangeRequest } from './change-request.shapes';
import { changeSchema } from './change-request.schemas';
import type { ChangeRequestService } from './change-request.service';
import { seededRandom } from '../playground/hashing';

/** Most contexts one preview evaluates. */
export const MAX_PREVIEW_CONTEXTS = 1000;

export const previewSchema = z.object({ contexts: z.array(contextSchema).min(1).max(MAX_PREVIEW_CONTEXTS) }).strict();

const configuration = (f: PlaygroundFeatureInput | undefined): PreviewConfiguration | null => (f === undefined ? null : {
  enabled: f.enabled,
  strategies: f.strategies.map((s) => ({
    id: s.id, name: s.name, title: s.title ?? null, disabled: s.disabled, featureName: f.name, sortOrder: s.sortOrder,
    segments: s.segments, constraints: s.constraints, variants: s.variants, parameters: s.parameters,
  })),
  variants: f.variants,
  dependencies: f.dependencies,
});

/** Features by name (a name such as `__proto__` or `constructor` is a Map key like any other). */
function byName(list: readonly PlaygroundFeatureInput[]): Map<string, PlaygroundFeatureInput> {
  const out = new Map<string, PlaygroundFeatureInput>();
  for (const f of list) if (!out.has(f.name)) out.set(f.name, f);
  return out;
}

/** The shown features and the parents they depend on (one level: parents cannot have parents), in snapshot order. */
function needed(list: readonly PlaygroundFeatureInput[], index: ReadonlyMap<string, PlaygroundFeatureInput>, shown: readonly string[]): PlaygroundFeatureInput[] {
  const names = new Set<string>();
  for (const name of shown) {
    const f = index.get(name);
    if (!f) continue;
    names.add(name);
    for (const d of f.dependencies) names.add(d.feature);
  }
  return list.filter((f) => names.has(f.name));
}

/**
 * Issue 12 part 9: "preview before approving". A request's changes applied to an in-memory copy of its environment's
 * evaluation input (change-request-preview.ts), and the playground's evaluation of each given context before and
 * after, for every feature the request affects. Reads only: nothing is written and no event is emitted. Like the
 * playground, it needs no permission beyond authentication.
 */
export class ChangeRequestPreviewService {
  /** Feature × context results produced by this request so far (the service lives for one request: GraphQL aliases share it). */
  private combinationsUsed = 0;
  private contextBytesUsed = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly changeRequests: ChangeRequestService,
    private readonly combinationLimit = DEFAULT_COMBINATION_LIMIT,
  ) {}

  /** `POST …/change-requests/:id/preview {contexts}`: 404 for an unknown request or one of another project; 400 for bad contexts. */
  async preview(project: string, id: string | number, body: unknown): Promise<ChangeRequestPreview> {
    const contexts = this.contexts(body);
    return this.run(await this.changeRequests.get(project, id), contexts);
  }

  /** The same for a request already read (GraphQL `ChangeRequest.preview`). */
  async previewOf(request: ChangeRequest, body: unknown): Promise<ChangeRequestPreview> {
    return this.run(request, this.contexts(body));
  }

  /** The contexts as sent (validated as the playground validates its context: zod's output would drop a `__proto__` key). */
  private contexts(body: unknown): PlaygroundContext[] {
    parse(previewSchema, body);
    return (body as { contexts: PlaygroundContext[] }).contexts;
  }

  private async run(request: ChangeRequest, contexts: PlaygroundContext[]): Promise<ChangeRequestPreview> {
    const { project, environment } = request;
    const warnings: PreviewWarning[] = [];
    const changes = this.changes(request, warnings);
    const world = await loadPreviewWorld(this.em, project, environment, changes);
    const applied = applyChanges(world, changes);
    warnings.push(...applied.warnings);
    warnings.sort((a, b) => a.changeId - b.changeId);

    const shown = [...applied.affected.keys()];
    this.charge(shown.length, contexts);

    const before = byName(world.features);
    const after = byName(applied.features);
    const beforeSnapshot = compile(needed(world.features, before, shown), world.segments);
    const afterSnapshot = compile(needed(applied.features, after, shown), applied.segments);
    const now = Date.now();
    const features: PreviewFeature[] = shown.map((name) => ({
      name,
      project: (before.get(name) ?? after.get(name))?.project ?? project,
      reasons: [...applied.affected.get(name)!],
      before: configuration(before.get(name)),
      after: configuration(after.get(name)),
      results: new Array<PreviewResult>(contexts.length),
    }));
    const pick = (snapshot: CompiledSnapshot, results: PlaygroundFeatureEvaluation[], name: string) => {
      const compiled = snapshot.byName.get(name);
      return compiled === undefined ? null : results[compiled.index];
    };
    let changedCount = 0;
    contexts.forEach((context, i) => {
      // One clock for the whole preview, and the same random draws before and after: only the request makes a difference.
      const b = evaluate(beforeSnapshot, context, environment, { now: () => now, random: seededRandom(i + 1) });
      const a = evaluate(afterSnapshot, context, environment, { now: () => now, random: seededRandom(i + 1) });
      for (const feature of features) {
        const was = pick(beforeSnapshot, b, feature.name);
        const is = pick(afterSnapshot, a, feature.name);
        const changed = (was?.isEnabled ?? false) !== (is?.isEnabled ?? false) || (was?.variant.name ?? 'disabled') !== (is?.variant.name ?? 'disabled');
        if (changed) changedCount += 1;
        feature.results[i] = { context: context as Record<string, unknown>, before: was, after: is, changed };
      }
    });
    return { id: request.id, project, environment, features, changedCount, warnings };
  }

  /** The request's changes in id order, each validated again as its action's shape (a stored one that no longer is becomes a warning). */
  private changes(request: ChangeRequest, warnings: PreviewWarning[]): PreviewChange[] {
    const out: PreviewChange[] = [];
    const add = (c: { id: number; action: string; payload: unknown }, feature: string | null) => {
      const parsed = changeSchema.safeParse(feature === null ? { action: c.action, payload: c.payload } : { action: c.action, feature, payload: c.payload });
      if (parsed.success) out.push({ ...parsed.data, id: c.id } as PreviewChange);
      else warnings.push({ changeId: c.id, action: c.action, feature, message: `The change is not a valid ${c.action} change: ${parsed.error.issues.map((i) => `${i.path.join('/')}: ${i.message}`).join('; ')}` });
    };
    for (const f of request.features) for (const c of f.changes) add(c, f.name);
    for (const s of request.segments) for (const c of s.changes) add(c, null);
    return out.sort((a, b) => a.id - b.id);
  }

  /** The playground's D9 limit, counted in feature × context results (both evaluations of a pair are one), and its bound on repeated context text. */
  private charge(features: number, contexts: readonly PlaygroundContext[]): void {
    const total = features * contexts.length;
    if (this.combinationsUsed + total > this.combinationLimit) {
      throw ValidationError.single('contexts', `Rejecting the preview as it would evaluate ${total} feature × context combinations${this.combinationsUsed > 0 ? ` on top of the ${this.combinationsUsed} this request already evaluated` : ''}, exceeding the ${this.combinationLimit} limit. The request affects ${features} features: please send fewer contexts (${contexts.length}).`);
    }
    let bytes = 0;
    for (const c of contexts) bytes += (JSON.stringify(c) ?? '').length;
    const repeated = bytes * features;
    if (this.contextBytesUsed + repeated > MAX_CONTEXT_BYTES) {
      throw ValidationError.single('contexts', `Rejecting the preview as its results would repeat about ${Math.round(repeated / 1e6)} MB of context text (at most ${MAX_CONTEXT_BYTES / 1e6} MB per request). Please send fewer or shorter contexts.`);
    }
    this.combinationsUsed += total;
    this.contextBytesUsed += repeated;
  }
}
