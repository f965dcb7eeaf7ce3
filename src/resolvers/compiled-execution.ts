import {
  BREAK, getOperationAST, getVariableValues, Kind, OperationTypeNode, visit,
  type DocumentNode, type ExecutionArgs, type ExecutionResult, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/**
 * Compiled execution of hot GraphQL queries (graphql-jit): a query text that comes back is compiled once into plain
 * JavaScript that resolves exactly its selection, instead of graphql-js walking the document field by field for every
 * object of every list. On the 1000-feature list with environments, strategies, constraints and variants this removes
 * most of the executor's time (bench/graphql-profile.ts).
 *
 * The answers stay those of the standard executor, by construction rather than by imitation:
 * - Only a compiled run **without any error** is answered as is. Its data is what the standard executor gives
 *   (the same resolvers, in the same order of fields, serialised by the same scalars). A run with errors is thrown away
 *   and the operation runs again on the standard executor, whose answer (error messages, locations, paths, nulls,
 *   extensions through the error mask) is the one sent. So the compiled path never shapes an error.
 * - That rerun is why only root fields with no lasting effect and no per-request budget are compiled
 *   (COMPILED_ROOT_FIELDS): running them twice changes nothing but the time. Fields that write (an audit event), count
 *   (a metric) or spend a budget shared by a request (the playgrounds, change request previews) always run on the
 *   standard executor, and so do mutations and subscriptions.
 * - Variables are checked by graphql-js first: a value it refuses never reaches compiled code.
 * - Documents with directives (`@skip`/`@include`) or a `__proto__` anywhere in their text (an alias or an input key,
 *   which generated code would turn into a prototype) run on the standard executor.
 *
 * What untrusted text can cost: nothing is compiled before the request passed validation (every limit of limits.ts,
 * so at most MAX_FIELDS fields), a text is compiled only the second time it is executed (one-off documents never
 * are), only when its operation selects at most MAX_COMPILED_FIELDS fields with fragments expanded (compile time and
 * generated code grow with that count: about 2 kB of code and 0.1 ms per field), and at most CACHE_SIZE compiled
 * operations are kept, least recently used first out. Any failure to compile or to run compiled falls back to the
 * standard executor.
 */

/** Query root fields served by compiled code: reads without lasting effects or per-request budgets. */
export const COMPILED_ROOT_FIELDS: ReadonlySet<string> = new Set([
  '__typename', '__schema', '__type',
  'addon', 'addonProviders', 'addons', 'apiTokens', 'application', 'applications', 'changeRequestConfig',
  'contextField', 'contextFields', 'environment', 'environments', 'events', 'eventTypes', 'feature', 'featureAt', 'featureDiff', 'featureIndex', 'featureTypes', 'featureUsage',
  'features', 'group', 'groups', 'me', 'permissions', 'personalAccessTokens', 'project', 'projects',
  'publicSignupToken', 'publicSignupTokens', 'role', 'roles', 'samlSettings', 'segment', 'segments', 'stateExport',
  'strategies', 'strategy', 'tag', 'tagType', 'tagTypes', 'tags', 'uiConfig', 'unknownFlags', 'user', 'users', 'validateImport',
]);

/** Query root fields that always run on the standard executor, and why (running them twice would show). */
export const STANDARD_ROOT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['exportFeatures', 'writes the features-exported audit event'],
  ['playground', 'counts an evaluation metric and spends the request\'s combination budget'],
  ['advancedPlayground', 'counts an evaluation metric and spends the request\'s combination budget'],
  ['changeRequest', 'its preview spends the request\'s combination budget'],
  ['changeRequests', 'their previews spend the request\'s combination budget'],
  ['pendingChangeRequests', 'their previews spend the request\'s combination budget'],
]);

/** Most fields (fragments expanded) an operation may select to be compiled. */
export const MAX_COMPILED_FIELDS = 250;
/** Most compiled operations kept. */
export const CACHE_SIZE = 100;

/**
 * How an operation was answered: by compiled code, by the standard executor, by it after a compiled run had errors, or
 * from the response cache (src/resolvers/response-cache.ts) without executing.
 */
export type ExecutionPath = 'compiled' | 'standard' | 'standard_rerun' | 'cached';

/** A map bounded to `max` entries that drops the least recently used one first. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(readonly max: number) {}

  get size(): number { return this.entries.size; }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  has(key: K): boolean { return this.entries.has(key); }
}

/** Fields an operation selects with fragments expanded, counting no further than `limit + 1`. */
export function selectedFieldCount(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, limit: number): number {
  let count = 0;
  const walk = (set: SelectionSetNode): boolean => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (++count > limit) return false;
        if (selection.selectionSet && !walk(selection.selectionSet)) return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!walk(selection.selectionSet)) return false;
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !walk(fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  walk(operation.selectionSet);
  return count;
}

/** The root fields of an operation (fragments on the root type followed). */
function rootFields(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return names;
}

function hasDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, { Directive() { found = true; return BREAK; } });
  return found;
}

/** Why a document is left to the standard executor, or undefined when it may be compiled. */
export function standardOnlyReason(document: DocumentNode, operationName: string | null | undefined): string | undefined {
  const text = document.loc?.source.body;
  if (text === undefined) return 'no source text';
  if (text.includes('__proto__')) return 'names __proto__';
  const operation = getOperationAST(document, operationName);
  if (!operation) return 'no single operation';
  if (operation.operation !== OperationTypeNode.QUERY) return operation.operation;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  if (hasDirectives(document)) return 'directives';
  for (const field of rootFields(operation, fragments)) {
    if (!COMPILED_ROOT_FIELDS.has(field)) return `root field ${field}`;
  }
  if (selectedFieldCount(operation, fragments, MAX_COMPILED_FIELDS) > MAX_COMPILED_FIELDS) return `more than ${MAX_COMPILED_FIELDS} fields`;
  return undefined;
}

/** A compiled operation, how many times a text was executed before it is compiled, or 'standard' for good. */
type Entry = CompiledQuery | number | 'standard';

export interface CompiledExecutionOptions {
  /** Most compiled operations kept (default CACHE_SIZE). */
  cacheSize?: number;
  /** Executions of a text on the standard executor before it is compiled (default 1: compiled when it comes back). */
  compileAfter?: number;
  /** Told how each operation was answered (the app counts it in its Prometheus metrics). */
  onExecuted?: (path: ExecutionPath) => void;
}

export interface CompiledExecution {
  plugin: Plugin;
  /** The compiled operations and the texts seen before, by operation name and text (for tests). */
  cache: LruCache<string, Entry>;
}

/**
 * The yoga plugin: replaces the execute function of operations it may compile with one that runs the compiled code
 * and falls back to the standard executor on any error.
 */
export function compiledExecution(schema: GraphQLSchema, { cacheSize = CACHE_SIZE, compileAfter = 1, onExecuted }: CompiledExecutionOptions = {}): CompiledExecution {
  const cache = new LruCache<string, Entry>(cacheSize);

  const compiledFor = (document: DocumentNode, operationName: string | null | undefined): CompiledQuery | undefined => {
    const text = document.loc?.source.body;
    if (text === undefined) return undefined;
    const key = `${operationName ?? ''}\u0000${text}`;
    const entry = cache.get(key);
    if (entry === 'standard') return undefined;
    if (entry !== undefined && typeof entry !== 'number') return entry;
    if (entry === undefined && standardOnlyReason(document, operationName) !== undefined) {
      cache.set(key, 'standard');
      return undefined;
    }
    const seen = entry ?? 0;
    if (seen < compileAfter) {
      cache.set(key, seen + 1);
      return undefined;
    }
    let compiled: CompiledQuery | ExecutionResult;
    try {
      compiled = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
    } catch {
      compiled = { errors: [] };
    }
    const result: Entry = isCompiledQuery(compiled) ? compiled : 'standard';
    cache.set(key, result);
    return result === 'standard' ? undefined : result;
  };

  const plugin: Plugin = {
    onExecute({ args, executeFn, setExecuteFn }) {
      const compiled = compiledFor(args.document, args.operationName);
      if (!compiled) {
        // Counted when it runs: a cached answer may stand in for it (the response cache wraps this function).
        setExecuteFn((execution: ExecutionArgs) => {
          onExecuted?.('standard');
          return executeFn(execution);
        });
        return;
      }
      setExecuteFn(async (execution: ExecutionArgs) => {
        const variables = execution.variableValues ?? {};
        const operation = getOperationAST(execution.document, execution.operationName)!;
        // graphql-js's coercion decides which variable values are acceptable; its refusal is the standard answer.
        if (getVariableValues(execution.schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 }).errors) {
          onExecuted?.('standard');
          return executeFn(execution);
        }
        let result: ExecutionResult | undefined;
        try {
          result = (await compiled.query(execution.rootValue, execution.contextValue, variables)) as ExecutionResult;
        } catch {
          result = undefined;
        }
        if (result && !result.errors?.length) {
          onExecuted?.('compiled');
          return result;
        }
        onExecuted?.('standard_rerun');
        return executeFn(execution);
      });
    },
  };
  return { plugin, cache };
}
