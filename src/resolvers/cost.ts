import { getNamedType, getNullableType, isLeafType, isListType, type GraphQLField, type GraphQLNamedType, type GraphQLSchema } from 'graphql';

/**
 * The cost model of the GraphQL schema (issue 8, defect 8; calibrated in issue 30 against bench/graphql-cost.ts),
 * computed by @pothos/plugin-complexity before anything runs: a field costs its own weight plus the cost of its
 * selection times its multiplier. One unit is about the work of resolving one object (a feature, an environment, a
 * strategy, a constraint, an event row) with its scalar fields, so the budget buys about the same time whatever the
 * shape of the request.
 * - An object costs 1. Its scalar and enum fields cost nothing of their own (reading a property of an object already
 *   loaded is a small part of that object's time, and MAX_FIELDS bounds how many a request selects), except JSON
 *   values (parameters, payloads, event data), which cost 1: they are documents of their own to copy and serialise.
 * - A field that takes `first` multiplies what is under it by `first` (the page it asks for).
 * - A list of objects costs 1 per item it is expected to hold, plus each item's selection: a root list of the
 *   service's things (projects, tags, segments, the playground's features) LIST_MULTIPLIER items, a list inside one
 *   thing (a feature's environments, an environment's strategies, a strategy's constraints and variants)
 *   NESTED_LIST_MULTIPLIER items. A list of scalars costs like a scalar.
 * - Fields that run heavy work carry that weight themselves (WEIGHTS), whatever is selected under them.
 * - Paging bookkeeping (pageInfo, totalCount, edges/nodes wrappers) adds nothing per item: the query behind it and its
 *   rows are charged on the connection field (`paged`).
 * The request's total must stay within the budget (GRAPHQL_MAX_COST, default 100,000).
 */
export const LIST_MULTIPLIER = 10;
/**
 * Lists inside an object (a feature's environments, an environment's strategies, a strategy's constraints): they are
 * short, and compounding larger guesses would price a dashboard several times over what it reads.
 */
export const NESTED_LIST_MULTIPLIER = 2;

export const WEIGHTS = {
  /** One page query and one count(*) over the audit log... */
  events: 200,
  /** ...and each event row read (its JSON data decoded). */
  eventRow: 1,
  /** A feature's page of events, loaded together with the other features' pages. */
  featureEvents: 5,
  /** One page query of features. */
  features: 10,
  /** One feature by name: its own statements (the feature, its environments, strategies, tags), not batched with others. */
  feature: 500,
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
  /**
   * A flag's exposure chart (issue 44): a statement per part for all flags of the request, plus one unit per period
   * (the exposure field adds them), each period being a bucket per environment assembled and answered.
   */
  featureExposure: 5,
  /** Hashes a password with scrypt (32 MiB, about 100 ms of CPU): ten per request at the default budget. */
  passwordHash: 10_000,
} as const;

/** Scalars whose values are documents of their own (see the model above). */
const DOCUMENT_SCALARS: ReadonlySet<string> = new Set(['JSON']);

/** What a leaf (scalar or enum) field costs: see the model above. */
const leafCost = (type: GraphQLNamedType) => (DOCUMENT_SCALARS.has(type.name) ? 1 : 0);

/** Default complexity of every field that sets none: see the model above. */
export function fieldComplexity<C>(args: Record<string, unknown>, _ctx: C, field: GraphQLField<unknown, C, Record<string, unknown>>): number | { field: number; multiplier: number } {
  const named = getNamedType(field.type);
  const first = args.first;
  if (typeof first === 'number' && Number.isFinite(first)) return { field: 1, multiplier: Math.max(first, 0) };
  if (isLeafType(named)) return leafCost(named);
  if (isListType(getNullableType(field.type))) return { field: NESTED_LIST_MULTIPLIER, multiplier: NESTED_LIST_MULTIPLIER };
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
      const named = getNamedType(field.type);
      const complexity = isLeafType(named) ? leafCost(named) : { field: LIST_MULTIPLIER, multiplier: LIST_MULTIPLIER };
      (field as { extensions: Record<string, unknown> }).extensions = { ...field.extensions, complexity };
    }
  }
  return schema;
}
