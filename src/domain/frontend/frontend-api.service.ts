import type { EntityManager } from '@mikro-orm/postgresql';
import { tokenReadScope, type Principal } from '../access/principal';
import { evaluateFast, type CompiledSnapshot, type FeatureDecision } from '../playground/engine';
import type { SnapshotCache } from '../playground/snapshot-cache';
import { currentOrKept, type LastKnownPolicy } from '../last-known';
import type { FrontendContext } from './frontend-context';

/** What one frontend API request evaluated: the snapshot, and each of its features' decision in snapshot order. */
export interface FrontendEvaluation {
  snapshot: CompiledSnapshot;
  decisions: FeatureDecision[];
  /** Set when the snapshot is the last one known while the database is away: since when it may be stale. */
  staleSince?: Date;
}

/**
 * The frontend API's evaluation (issue 14 part 2): the features of the token's projects in the token's environment,
 * evaluated server-side by the playground's engine against one context, from the compiled snapshot the playground
 * caches (a request costs the one `model_version` query while nothing changed). Reads only; no event.
 */
export class FrontendApiService {
  constructor(private readonly em: EntityManager, private readonly cache: SnapshotCache, private readonly lastKnown?: LastKnownPolicy) {}

  /**
   * `requestAddress` is the caller's address, the context's `remoteAddress` when it names none (as Unleash does).
   * Like Unleash v5.8, a context without a `sessionId` gets a random one, so stickiness on the session (the
   * default stickiness of rollouts and variants when there is no `userId`) is random for such a request.
   */
  async evaluate(principal: Principal, context: FrontendContext, requestAddress: string | undefined): Promise<FrontendEvaluation> {
    const { snapshot, staleSince } = await this.snapshot(principal, context, requestAddress);
    return { snapshot, decisions: evaluateFast(snapshot, context), staleSince };
  }

  /**
   * The compiled snapshot a token reads (its environment and projects) and the environment, with the context completed
   * as described above; the last one known while the database is away. OFREP evaluates from it too.
   */
  async snapshot(principal: Principal, context: FrontendContext, requestAddress: string | undefined): Promise<{ snapshot: CompiledSnapshot; environment: string; staleSince?: Date }> {
    const { environment, projects } = tokenScope(principal, context);
    if (context.remoteAddress === undefined && requestAddress) context.remoteAddress = requestAddress;
    if (context.sessionId === undefined) context.sessionId = String(Math.random());
    const { value: snapshot, staleSince } = await currentOrKept(this.lastKnown, 'frontend',
      async () => (await this.cache.get(this.em, [environment], projects)).get(environment)!, () => this.cache.kept(environment, projects));
    return { snapshot, environment, staleSince };
  }
}

/** The environment and projects a token reads, the context naming the environment for an admin token. */
export const tokenScope = (principal: Principal, context: FrontendContext) => tokenReadScope(principal, context.environment);
