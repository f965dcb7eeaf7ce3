import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../access/principal';
import { FrontendApiService } from '../frontend/frontend-api.service';
import type { FrontendContext } from '../frontend/frontend-context';
import type { LastKnownPolicy } from '../last-known';
import { evaluateExplained, type DecisionReason } from '../playground/explain';
import type { FeatureDecision } from '../playground/types';
import type { SnapshotCache } from '../playground/snapshot-cache';
import { ofrepValue } from './ofrep-values';

/** One flag's OFREP evaluation: `{key, value?, reason, variant, metadata}`. */
export interface OfrepEvaluation {
  key: string;
  value?: unknown;
  reason: DecisionReason;
  variant: string;
  metadata: { project: string; impressionData: boolean };
}

export interface OfrepResult<T> {
  result: T;
  /** The environment evaluated (the token's, or the context's for an admin token). */
  environment: string;
  /** Set when the snapshot is the last one known while the database is away: since when it may be stale. */
  staleSince?: Date;
}

/**
 * The OpenFeature Remote Evaluation Protocol's evaluations (issue 45): the flags a token reads (its environment and
 * projects, as the frontend API), evaluated by the playground's engine from the compiled snapshot it caches, each with
 * OpenFeature's value, variant and reason (ofrep-values.ts, playground/explain.ts). Reads only; no event.
 */
export class OfrepService {
  constructor(private readonly em: EntityManager, private readonly cache: SnapshotCache, private readonly lastKnown?: LastKnownPolicy) {}

  /**
   * One flag; `result` is undefined when the token's scope holds no flag of that name. `decision` is what an SDK would
   * count of it (enabled, and the variant handed out): a variant may be called `off` or `disabled` like any other.
   */
  async evaluateOne(principal: Principal, key: string, context: FrontendContext, requestAddress: string | undefined): Promise<OfrepResult<OfrepEvaluation | undefined> & { decision?: FeatureDecision }> {
    const { snapshot, environment, staleSince } = await this.snapshot(principal, context, requestAddress);
    const [one] = evaluateExplained(snapshot, context, [key]);
    return { result: one && toEvaluation(one), decision: one?.explained.decision, environment, staleSince };
  }

  /** Every flag of the token's scope, by name. */
  async evaluateAll(principal: Principal, context: FrontendContext, requestAddress: string | undefined): Promise<OfrepResult<OfrepEvaluation[]>> {
    const { snapshot, environment, staleSince } = await this.snapshot(principal, context, requestAddress);
    return { result: evaluateExplained(snapshot, context).map(toEvaluation), environment, staleSince };
  }

  /** What the frontend API reads for the token and context (FrontendApiService.snapshot). */
  private snapshot(principal: Principal, context: FrontendContext, requestAddress: string | undefined) {
    return new FrontendApiService(this.em, this.cache, this.lastKnown).snapshot(principal, context, requestAddress);
  }
}

function toEvaluation({ feature, explained }: ReturnType<typeof evaluateExplained>[number]): OfrepEvaluation {
  return { key: feature.name, ...ofrepValue(feature, explained), reason: explained.reason, metadata: { project: feature.project, impressionData: feature.impressionData } };
}
