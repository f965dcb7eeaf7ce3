import { getNullableType, isListType, type GraphQLField, type GraphQLSchema } from 'graphql';

/**
 * The cost model of the GraphQL schema (issue 8, defect 8), computed by @pothos/plugin-complexity before anything
 * runs: a field costs its own weight plus the cost of its selection times its multiplier.
 * - A field that takes `first` multiplies what is under it by `first` (the page it asks for).
 * - A list of the service's things (a root field: projects, tags, segments, the playground's features) multiplies
 *   what is under it by LIST_MULTIPLIER; a list inside one thing (a feature's environments, an environment's
 *   strategies, a strategy's constraints) by NESTED_LIST_MULTIPLIER: they are short, and compounding 10s would
 *   price an ordinary dashboard query in the millions.
 * - Fields that run heavy work carry that weight themselves (WEIGHTS), whatever is selected under them.
 * - Paging bookkeeping (pageInfo, totalCount, edges/nodes wrappers) adds nothing per item: the query behind it is
 *   charged on the connection field.
 * The request's total must stay within the budget (GRAPHQL_MAX_COST, default 100,000).
 */
export const LIST_MULTIPLIER = 10;
/** Lists inside an object (a feature's environments, an environment's strategies, a strategy's constraints). */
export const NESTED_LIST_MULTIPLIER = 3;

export const WEIGHTS = {
  /** One page query and one count(*) over the audit log... */
  events: 200,
  /** ...and each event row read (its JSON data decoded). */
  eventRow: 3,
  /** A feature's page of events, loaded together with the other features' pages. */
  featureEvents: 5,
  /** One page query of features. */
  features: 10,
  /** Each feature row read. */
  featureRow: 1,
  /** Evaluates every feature of the chosen projects in one environment. */
  playground: 1_000,
  /** Evaluates up to PLAYGROUND_COMBINATION_LIMIT combinations (shared by every alias of one request). */
  advancedPlayground: 5_000,
  /** A change request preview: loads an environment's features, applies the request in memory, compiles what it affects... */
  changeRequestPreview: 1_000,
  /** ...and evaluates each context twice per affected feature (up to PLAYGROUND_COMBINATION_LIMIT results per request). */
  changeRequestPreviewContext: 5,
  /** Reads an import's features and everything they use (a dozen statements) and checks every item of the payload. */
  importValidation: 1_000,
  /** ...and writes it, set by set, in one transaction. */
  importFeatures: 5_000,
  /** Reads the chosen features' configuration in one environment (eight statements) and writes its audit event. */
  exportFeatures: 500,
  /** Four aggregate queries over a project's features and events. */
  healthReport: 200,
  /**
   * A live event stream (Subscription.events): a connection and a listener held for as long as the client stays,
   * and its selection resolved once per event, charged once for the stream.
   */
  eventStream: 1_000,
  /** Hourly SDK counts of a page of features over up to 48 hours (one statement for all of them): per feature. */
  featureMetrics: 5,
  /** Hashes a password with scrypt (32 MiB, about 100 ms of CPU): ten per request at the default budget. */
  passwordHash: 10_000,
} as const;

/** Default complexity of every field that sets none: see the model above. */
export function fieldComplexity<C>(args: Record<string, unknown>, _ctx: C, field: GraphQLField<unknown, C, Record<string, unknown>>): number | { field: number; multiplier: number } {
  const first = args.first;
  if (typeof first === 'number' && Number.isFinite(first)) return { field: 1, multiplier: Math.max(first, 0) };
  if (isListType(getNullableType(field.type))) return { field: 1, multiplier: NESTED_LIST_MULTIPLIER };
  return 1;
}

/**
 * A paged field: its query's weight plus `perRow` for each row of the page it asks for (read whatever is selected),
 * and what is selected under it once per row.
 */
export const paged = (weight: number, perRow: number) => (args: { first?: number | null }) => {
  const first = Math.max(args.first ?? 0, 0);
  return { field: weight + perRow * first, multiplier: first };
};

/** Connection bookkeeping: nothing of its own; `pageInfo` and `totalCount` are paid for by the connection field. */
export const FREE = { field: 0, multiplier: 0 } as const;
/** edges / nodes of a connection: the per-item multiplier was applied by the connection field already. */
export const PASS_THROUGH = { field: 0, multiplier: 1 } as const;

/**
 * Root list fields that set no complexity of their own get LIST_MULTIPLIER instead of the nested default (the
 * complexity plugin's field function cannot tell a root field from a nested one; the built schema can).
 */
export function priceRootLists(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (isListType(getNullableType(field.type)) && field.extensions.complexity === fieldComplexity) {
      (field as { extensions: Record<string, unknown> }).extensions = { ...field.extensions, complexity: { field: 1, multiplier: LIST_MULTIPLIER } };
    }
  }
  return schema;
}
