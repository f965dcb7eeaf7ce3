import { createHash } from 'node:crypto';
import { useResponseCache, type Cache } from '@envelop/response-cache';
import {
  getNamedType, getOperationAST, isObjectType, Kind, OperationTypeNode, print,
  type DocumentNode, type ExecutionResult, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { VersionReader } from '../domain/client-features/version-reader';
import { actorKey } from '../domain/access/principal';
import type { GraphQLContext } from './builder';

/**
 * Answers of repeated GraphQL reads from memory (issue 30): a dashboard that asks for its 1000 features again gets the
 * answer computed the first time, as long as nothing it shows changed. Built on envelop's response cache
 * (@envelop/response-cache), with its own key and its own rules of what may be cached:
 *
 * - **What moves an answer.** Only operations whose every selected field is in CACHEABLE_FIELDS are cached: fields
 *   computed from tables whose every write moves `model_version` (migrations 0004, 0017, 0019: features, their
 *   environments, strategies, segments and their links, dependencies, tags of features, environments, a project's
 *   environments, feature types), plus the caller's own permissions (`me.allowed`). The key carries the counter as
 *   read for this request by the app's VersionReader (the one the client API's cache uses: on PostgreSQL watched
 *   through LISTEN, on this instance moved by `change()` right after commit), so a change shows in the first request
 *   after its commit. Anything else (events, metrics, users, tokens, `lastSeenAt`, which moves another counter
 *   without notification, a project's own name or settings, mutations, subscriptions, introspection) runs every time:
 *   an allow-list, so a field added later is not cached until someone says it may be.
 * - **Whose answer.** The key carries the caller (actorKey: a user or a token by id) and a digest of its rights: for an
 *   API token its type, projects and environment as authenticated now; for a user its root role and every grant it
 *   holds, read afresh for the request (one statement). Two callers never share an answer, and a caller whose rights
 *   changed gets a new one.
 * - **What is kept.** Only answers without any error; at most `maxEntries` answers and about `maxBytes` bytes of
 *   answers (their JSON size), least recently used first out. An answer of an older version is never read again (the
 *   key moved) and ages out.
 * - **What is still paid.** The request is parsed and validated as any other, so a cached answer still passes the
 *   cost budget and every other limit (limits.ts) before it is served.
 *
 * Plugin order (graphql.handler.ts): after the compiled execution, whose execute function the cache wraps on a miss.
 */

/** Fields whose values move `model_version` (or the caller's rights, which are in the key) when they change. */
export const CACHEABLE_FIELDS: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  ['Query', new Set(['project', 'projects', 'features', 'feature', 'segments', 'segment', 'environments', 'environment', 'featureTypes', 'me'])],
  ['Me', new Set(['allowed'])],
  // A project exists as long as its environment links do (a project always has one, and they go with it); its name,
  // description and settings are rows of `projects`, which moves no counter.
  ['Project', new Set(['id', 'features', 'environments', 'featureCount'])],
  ['ProjectEnvironment', '*'],
  ['FeatureConnection', '*'],
  ['FeatureEdge', '*'],
  ['FeaturePageInfo', '*'],
  ['Feature', new Set(['name', 'type', 'description', 'project', 'stale', 'impressionData', 'archived', 'archivedAt', 'createdAt', 'enabled',
    'environments', 'variants', 'tags', 'dependencies', 'children'])],
  ['FeatureEnvironment', new Set(['name', 'environment', 'featureName', 'enabled', 'type', 'sortOrder', 'variantCount', 'hasStrategies',
    'hasEnabledStrategies', 'strategies', 'variants'])],
  ['FeatureStrategy', '*'],
  ['Constraint', '*'],
  ['StrategyVariant', '*'],
  ['FeatureVariant', '*'],
  ['VariantOverride', '*'],
  ['VariantPayload', '*'],
  ['FeatureDependency', '*'],
  ['Segment', '*'],
  ['SegmentStrategy', '*'],
  ['Environment', '*'],
  ['FeatureType', '*'],
  ['Tag', '*'],
]);

/** Whether the operation may be answered from the cache: a query whose every field (fragments followed) is cacheable. */
export function isCacheable(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== OperationTypeNode.QUERY) return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const seen = new Set<string>();
  const walk = (typeName: string, set: SelectionSetNode): boolean => {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) return false;
    const allowed = CACHEABLE_FIELDS.get(typeName);
    if (!allowed) return false;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__typename') continue;
        if (allowed !== '*' && !allowed.has(name)) return false;
        const field = type.getFields()[name];
        if (!field) return false;
        if (selection.selectionSet && !walk(getNamedType(field.type).name, selection.selectionSet)) return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!walk(selection.typeCondition?.name.value ?? typeName, selection.selectionSet)) return false;
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment) return false;
        const key = `${typeName}\u0000${fragment.name.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (!walk(fragment.typeCondition.name.value, fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  return walk(schema.getQueryType()!.name, operation.selectionSet);
}

export interface ResponseCacheLimits {
  /** Most answers kept. */
  maxEntries: number;
  /** Most bytes of answers kept (their JSON text). */
  maxBytes: number;
}

/** The JSON text of the 1000-feature dashboard is about 2 MB (its objects take a few times that in the heap). */
export const DEFAULT_RESPONSE_CACHE_LIMITS: ResponseCacheLimits = { maxEntries: 200, maxBytes: 32 * 1024 * 1024 };

/** Least recently used answers within a count and a byte budget (envelop's Cache interface; no entity invalidation: keys move instead). */
export class BoundedAnswerStore implements Cache {
  /** In order of use, least recent first. */
  private readonly entries = new Map<string, { result: ExecutionResult; bytes: number }>();
  private bytes = 0;
  /** The newest `model_version` a request read: answers of older versions can no longer be asked for. */
  private version = -1n;
  /** Answers served from memory, and answers stored (tests and metrics). */
  hits = 0;
  stores = 0;

  constructor(private readonly limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS, private readonly onHit?: () => void) {}

  get size(): number { return this.entries.size; }

  get(id: string): ExecutionResult | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    this.entries.delete(id);
    this.entries.set(id, entry);
    this.hits += 1;
    this.onHit?.();
    return entry.result;
  }

  set(id: string, result: ExecutionResult): void {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    if (bytes > this.limits.maxBytes) return;
    this.delete(id);
    this.entries.set(id, { result, bytes });
    this.bytes += bytes;
    this.stores += 1;
    while (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  /**
   * A request read `version`: once the counter moved past what the kept answers were computed at, none of them can be
   * asked for again (every key carries the version), so they are dropped at once rather than aged out. A request that
   * read an older version while another read the newer one only stores an answer nobody asks for, which ages out.
   */
  advance(version: string): void {
    const v = BigInt(version);
    if (v <= this.version) return;
    this.version = v;
    this.entries.clear();
    this.bytes = 0;
  }

  /** Forgets every answer (the service is idle: src/idle-gc.ts). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  invalidate(): void {
    // Answers are keyed by the counters they were computed at; nothing is invalidated by entity.
  }

  private delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}

/** What the key of a cacheable request carries besides its document and variables (set on the context by the gate). */
interface CacheScope {
  session: string;
  version: string;
}
type CachingContext = GraphQLContext & { responseCache?: CacheScope };

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The caller and a digest of its rights as of this request (see the module comment). */
async function callerKey(ctx: GraphQLContext): Promise<string> {
  const principal = ctx.services.principal;
  const token = principal.kind === 'api-token'
    ? [principal.tokenType ?? '', principal.isAdmin, [...(principal.tokenProjects ?? [])].sort(), principal.tokenEnvironment ?? '']
    : [];
  const grants = principal.kind === 'user' && !principal.isAdmin
    ? (await ctx.services.access.granted()).map((g) => `${g.permission}|${g.project ?? ''}|${g.environment ?? ''}|${g.root}`).sort()
    : [];
  return `${actorKey(principal)}:${sha256(JSON.stringify([principal.kind, principal.isAdmin, principal.rootRoleId, token, grants]))}`;
}

export interface ResponseCache {
  plugins: Plugin[];
  store: BoundedAnswerStore;
}

/**
 * The two plugins: a gate that decides whether an operation is cacheable and, if so, reads the model version and the
 * caller's key (asynchronously, before envelop's cache looks anything up), then envelop's response cache keyed by them.
 */
export function responseCache(schema: GraphQLSchema, versions: VersionReader, limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS, onHit?: () => void): ResponseCache {
  const store = new BoundedAnswerStore(limits, onHit);
  const decided = new WeakMap<DocumentNode, Map<string, boolean>>();
  const cacheable = (document: DocumentNode, operationName: string | null | undefined) => {
    let byName = decided.get(document);
    if (!byName) decided.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let ok = byName.get(name);
    if (ok === undefined) byName.set(name, (ok = isCacheable(schema, document, operationName)));
    return ok;
  };
  const gate: Plugin = {
    async onExecute({ args }) {
      const ctx = args.contextValue as unknown as CachingContext;
      if (!cacheable(args.document, args.operationName)) return;
      const [version, session] = await Promise.all([versions.current(), callerKey(ctx)]);
      store.advance(version);
      ctx.responseCache = { version, session };
    },
  };
  const cache = useResponseCache<CachingContext>({
    cache: store,
    ttl: Infinity,
    invalidateViaMutation: false,
    includeExtensionMetadata: false,
    enabled: (ctx) => ctx.responseCache !== undefined,
    session: (ctx) => ctx.responseCache?.session ?? null,
    getDocumentString: (args) => args.document.loc?.source.body ?? print(args.document),
    buildResponseCacheKey: ({ documentString, variableValues, operationName, sessionId, context }) => sha256(JSON.stringify([
      (context as unknown as CachingContext).responseCache?.version ?? '', sessionId ?? '', operationName ?? '', documentString, stableJson(variableValues ?? {}),
    ])),
    shouldCacheResult: ({ result }) => !result.errors?.length && result.data != null,
  }) as Plugin;
  return { plugins: [gate, cache], store };
}

/** JSON with object keys sorted, so equal variables give equal keys whatever their order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
