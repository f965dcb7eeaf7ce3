import { describe, expect, it } from '@jest/globals';
import { getOperationAST, parse, type ExecutionArgs, type ExecutionResult, type FragmentDefinitionNode } from 'graphql';
import { NotFoundError } from '../../src/domain/errors';
import {
  CACHE_SIZE, COMPILED_ROOT_FIELDS, compiledExecution, LruCache, MAX_COMPILED_FIELDS, selectedFieldCount, STANDARD_ROOT_FIELDS,
  standardOnlyReason, type ExecutionPath,
} from '../../src/resolvers/compiled-execution';
import { buildSchema } from '../../src/resolvers';

const schema = buildSchema();

/** Runs one operation through the plugin as graphql-yoga would: returns how it was answered and the answer. */
async function run(
  execution: ReturnType<typeof compiledExecution>, query: string,
  { contextValue = {}, variableValues, operationName }: { contextValue?: object; variableValues?: Record<string, unknown>; operationName?: string } = {},
): Promise<{ result: ExecutionResult; standardCalls: number }> {
  const args = { schema, document: parse(query), contextValue, variableValues, operationName } as ExecutionArgs;
  let standardCalls = 0;
  const standard = async (): Promise<ExecutionResult> => { standardCalls++; return { data: { standard: true } }; };
  let execute: (a: ExecutionArgs) => Promise<ExecutionResult> = standard;
  const onExecute = execution.plugin.onExecute as (payload: object) => void;
  onExecute({ args, executeFn: standard, setExecuteFn: (fn: typeof execute) => { execute = fn; } });
  return { result: await execute(args), standardCalls };
}

describe('LruCache', () => {
  it('keeps at most `max` entries and drops the least recently used first', () => {
    const cache = new LruCache<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0); // a is now the most recently used
    cache.set('d', 3);
    expect([cache.size, cache.has('b'), cache.has('a'), cache.has('c'), cache.has('d')]).toEqual([3, false, true, true, true]);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect([cache.get('k97'), cache.get('k98'), cache.get('k99'), cache.get('a')]).toEqual([97, 98, 99, undefined]);
  });
});

describe('which operations may be compiled', () => {
  it('every Query root field is either compiled or kept on the standard executor, with a reason', () => {
    const roots = Object.keys(schema.getQueryType()!.getFields());
    const unclassified = roots.filter((f) => !COMPILED_ROOT_FIELDS.has(f) && !STANDARD_ROOT_FIELDS.has(f));
    const both = roots.filter((f) => COMPILED_ROOT_FIELDS.has(f) && STANDARD_ROOT_FIELDS.has(f));
    expect({ unclassified, both }).toEqual({ unclassified: [], both: [] });
    const stale = [...COMPILED_ROOT_FIELDS, ...STANDARD_ROOT_FIELDS.keys()].filter((f) => !f.startsWith('__') && !roots.includes(f));
    expect(stale).toEqual([]);
  });

  it('reads may be compiled; mutations, subscriptions, directives, __proto__ and fields with effects may not', () => {
    const reason = (query: string, operationName?: string) => standardOnlyReason(parse(query), operationName);
    expect(reason('{ project(id: "p") { features(first: 5) { nodes { name environments { name } } } } }')).toBeUndefined();
    expect(reason('query A { tags { value } } query B { projects { id } }', 'B')).toBeUndefined();
    expect(reason('{ ...R } fragment R on Query { tags { value } }')).toBeUndefined();
    expect(reason('mutation { setFeaturesStale(input: { project: "p", features: [], stale: true }) }')).toBe('mutation');
    expect(reason('subscription { events { type } }')).toBe('subscription');
    expect(reason('query A { tags { value } } query B { projects { id } }')).toBe('no single operation');
    expect(reason('query($x: Boolean!) { tags @include(if: $x) { value } }')).toBe('directives');
    expect(reason('{ __proto__: tags { value } }')).toBe('names __proto__');
    expect(reason('{ tags { value } playground(input: { environment: "e", context: {} }) { name } }')).toBe('root field playground');
    expect(reason('{ ...R } fragment R on Query { exportFeatures(input: { environment: "e" }) }')).toBe('root field exportFeatures');
    const wide = `{ ${Array.from({ length: MAX_COMPILED_FIELDS + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    expect(reason(wide)).toBe(`more than ${MAX_COMPILED_FIELDS} fields`);
  });

  it('counts fields with fragments expanded and stops at the limit, however much the fragments multiply', () => {
    // Each fragment spreads the next one twice: 2^40 fields once expanded, more than any walk could count.
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => i === levels - 1
      ? `fragment F${i} on Query { __typename }`
      : `fragment F${i} on Query { ...F${i + 1} a: __typename ... on Query { ...F${i + 1} } }`).join('\n');
    const document = parse(`{ ...F0 }\n${fragments}`);
    const map = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((d) => [d.name.value, d]));
    const operation = getOperationAST(document)!;
    expect(selectedFieldCount(operation, map, MAX_COMPILED_FIELDS)).toBe(MAX_COMPILED_FIELDS + 1);
    expect(selectedFieldCount(getOperationAST(parse('{ a { b c { d } } e }'))!, new Map(), 100)).toBe(5);
  });
});

describe('the plugin', () => {
  it('compiles a text on its second execution, answers from compiled code, and keeps at most cacheSize operations', async () => {
    const paths: ExecutionPath[] = [];
    const execution = compiledExecution(schema, { cacheSize: 3, onExecuted: (p) => paths.push(p) });
    expect((await run(execution, '{ a0: __typename }')).result).toEqual({ data: { standard: true } });
    expect(paths).toEqual(['standard']);
    const again = await run(execution, '{ a0: __typename }');
    expect([again.result, again.standardCalls, paths]).toEqual([{ data: { a0: 'Query' } }, 0, ['standard', 'compiled']]);
    for (let i = 1; i < 20; i++) {
      await run(execution, `{ a${i}: __typename }`);
      expect((await run(execution, `{ a${i}: __typename }`)).result).toEqual({ data: { [`a${i}`]: 'Query' } });
      expect(execution.cache.size).toBeLessThanOrEqual(3);
    }
    expect(CACHE_SIZE).toBeGreaterThan(0);
  });

  it('a compiled run with an error is answered by the standard executor', async () => {
    const paths: ExecutionPath[] = [];
    const execution = compiledExecution(schema, { compileAfter: 0, onExecuted: (p) => paths.push(p) });
    const summary = { name: 'f', type: 'release', description: null, project: 'p', stale: false, impressionData: false, createdAt: '2026-01-01T00:00:00.000Z', archivedAt: null, archived: false, lastSeenAt: null, favorite: false };
    const context = (found: boolean) => ({
      services: { features: { read: { summary: async (name: string) => { if (!found) throw new NotFoundError(`no ${name}`); return summary; } } } },
    });
    const ok = await run(execution, '{ feature(name: "f") { name type stale } }', { contextValue: context(true) });
    expect([ok.result, ok.standardCalls]).toEqual([{ data: { feature: { name: 'f', type: 'release', stale: false } } }, 0]);
    const failed = await run(execution, '{ feature(name: "f") { name type stale } }', { contextValue: context(false) });
    expect([failed.result, failed.standardCalls]).toEqual([{ data: { standard: true } }, 1]);
    expect(paths).toEqual(['compiled', 'standard_rerun']);
  });

  it('variable values graphql-js refuses never reach compiled code', async () => {
    const paths: ExecutionPath[] = [];
    const execution = compiledExecution(schema, { compileAfter: 0, onExecuted: (p) => paths.push(p) });
    const query = 'query($name: String!) { feature(name: $name) { name } }';
    let called = 0;
    const contextValue = { services: { features: { read: { summary: async () => { called++; return undefined; } } } } };
    const refused = await run(execution, query, { contextValue, variableValues: { name: 42 } });
    expect([refused.result, refused.standardCalls, called, paths]).toEqual([{ data: { standard: true } }, 1, 0, ['standard']]);
  });
});
