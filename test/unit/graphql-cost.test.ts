import { describe, expect, it } from '@jest/globals';
import { parse, validate } from 'graphql';
import { buildSchema } from '../../src/resolvers';
import { LIST_MULTIPLIER, NESTED_LIST_MULTIPLIER, WEIGHTS } from '../../src/resolvers/cost';
import { costRule, DEFAULT_MAX_COST, MAX_NESTING, parseWithinLimits, textNesting } from '../../src/resolvers/limits';

/** Issue 8, defect 8: the cost model, measured by the same rule the server runs. */
const schema = buildSchema();
const costOf = (query: string, variables: Record<string, unknown> = {}) => {
  const [error] = validate(schema, parse(query), [costRule({ context: {}, variables }, { maxCost: 0 })]);
  const m = /costs (\d+),/.exec(error?.message ?? '');
  if (!m) throw new Error(`no cost reported for ${query}: ${error?.message}`);
  return Number(m[1]);
};

describe('the cost model', () => {
  it('an object costs 1, its scalars nothing, a JSON value 1; a list 1 per expected item (a root list 10, a list inside a thing 2)', () => {
    expect(costOf('{ tags { type value } }')).toBe(LIST_MULTIPLIER);
    expect(costOf('{ projects { id environments { environment } } }')).toBe(LIST_MULTIPLIER * (1 + NESTED_LIST_MULTIPLIER * 1));
    // A strategy: its parameters (JSON) and two nested lists of objects.
    const strategy = 1 + NESTED_LIST_MULTIPLIER + NESTED_LIST_MULTIPLIER;
    expect(costOf('{ feature(name: "f") { name environments { name strategies { name parameters constraints { contextName values } variants { name } } } } }'))
      .toBe(WEIGHTS.feature + NESTED_LIST_MULTIPLIER * (1 + NESTED_LIST_MULTIPLIER * (1 + strategy)));
  });

  it('the dashboard query of 1000 features with environments, strategies, constraints and variants fits the budget', () => {
    const query = '{ project(id: "p") { features(first: 1000) { nodes { name type stale environments { name enabled strategies { name parameters constraints { contextName operator values inverted caseInsensitive } variants { name weight stickiness } } variants { name weight } } } } } }';
    const perFeature = NESTED_LIST_MULTIPLIER * (1 + NESTED_LIST_MULTIPLIER * (1 + 1 + 2 * NESTED_LIST_MULTIPLIER) + NESTED_LIST_MULTIPLIER);
    expect(costOf(query)).toBe(1 + WEIGHTS.features + WEIGHTS.featureRow * 1000 + 1000 * perFeature);
    expect(costOf(query)).toBeLessThan(DEFAULT_MAX_COST);
  });

  it('an exposure chart costs its weight and one per period; the project list\'s 1000 rows with 24-hour sparklines fit the budget', () => {
    expect(costOf('{ feature(name: "f") { exposure(hoursBack: 720) { totals } } }')).toBe(WEIGHTS.feature + WEIGHTS.featureExposure + 720);
    // 30 days fall on at most 31 calendar days of any time zone.
    expect(costOf('{ feature(name: "f") { exposure(hoursBack: 720, granularity: day) { totals } } }')).toBe(WEIGHTS.feature + WEIGHTS.featureExposure + 31);
    const list = `query ($id: String!) { project(id: $id) { id name featureNaming { pattern } environments { environment }
      features(first: 1000) { nodes { name type description stale createdAt tags { type value } environments { name enabled lastSeenAt }
        exposure(hoursBack: 24) { totals } } pageInfo { hasNextPage endCursor } } }
      changeRequestConfig(project: $id) { environment changeRequestsEnabled } featureTypes { id name } }`;
    expect(costOf(list, { id: 'p' })).toBeLessThan(DEFAULT_MAX_COST / 2);
  });

  it('`first` multiplies the page, and each row read costs whatever is selected; paging bookkeeping is free', () => {
    // Per row: its `node` object (its scalars free); edges and cursors are bookkeeping.
    const page = (first: number) => WEIGHTS.events + WEIGHTS.eventRow * first + first * 1;
    expect(costOf('{ events(first: 100) { totalCount pageInfo { hasNextPage } edges { cursor node { id type } } } }')).toBe(page(100));
    expect(costOf('query($n: Int) { events(first: $n) { totalCount pageInfo { hasNextPage } edges { cursor node { id type } } } }', { n: 1000 })).toBe(page(1000));
    // Only the count selected still reads the page.
    expect(costOf('{ events(first: 1000) { totalCount } }')).toBe(WEIGHTS.events + WEIGHTS.eventRow * 1000);
  });

  it('aliases add up: 1000 × events(first: 1000) is far over the budget', () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `e${i}: events(first: 1000) { totalCount }`).join(' ');
    expect(costOf(`{ ${aliases} }`)).toBe(1000 * (WEIGHTS.events + WEIGHTS.eventRow * 1000));
    expect(1000 * (WEIGHTS.events + WEIGHTS.eventRow * 1000)).toBeGreaterThan(DEFAULT_MAX_COST);
  });

  it('evaluations carry their own weight', () => {
    const advanced = '{ advancedPlayground(input: { environments: ["development"], context: { appName: "a" } }) { name } }';
    expect(costOf(advanced)).toBe(WEIGHTS.advancedPlayground);
    expect(costOf('{ playground(input: { environment: "development", context: { appName: "a" } }) { name } }')).toBe(WEIGHTS.playground);
    expect(costOf('{ project(id: "default") { healthReport { health } } }')).toBe(1 + WEIGHTS.healthReport);
  });

  it('fragments are expanded once per place they are spread, and measured once (memoised)', () => {
    const doubling = (levels: number) => `{ segments { ...F0 } } ${Array.from({ length: levels }, (_, i) => `fragment F${i} on Segment { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F${levels} on Segment { constraints { contextName } }`;
    expect(costOf(doubling(3))).toBe(LIST_MULTIPLIER * (1 + 8 * NESTED_LIST_MULTIPLIER));
    // 2^41 fields, measured in 41 steps rather than 2^40.
    const started = Date.now();
    const [refused] = validate(schema, parse(doubling(40)), [costRule({ context: {} })]);
    expect(Date.now() - started).toBeLessThan(200);
    expect(refused.message).toBe(`The operation selects ${1 + 2 ** 41} fields (fragments expanded); the limit is 2000.`);
  });

  it('the budget is inclusive: a cost equal to it passes, one more is refused with both numbers', () => {
    const query = '{ tags { type value } }';
    const cost = costOf(query);
    expect(validate(schema, parse(query), [costRule({ context: {} }, { maxCost: cost })])).toEqual([]);
    const [refused] = validate(schema, parse(query), [costRule({ context: {} }, { maxCost: cost - 1 })]);
    expect(refused.message).toBe(`The operation costs ${cost}, over the budget of ${cost - 1} per request. Ask for smaller pages (first), fewer aliases or fewer nested lists.`);
    expect(refused.extensions).toMatchObject({ name: 'ValidationError', code: 400 });
  });
});

describe('the text is measured before it is parsed', () => {
  it('counts nesting of braces, brackets and parentheses outside strings and comments, and stops early', () => {
    expect(textNesting('{ a { b(x: [1, [2]]) } }')).toBe(5);
    expect(textNesting('{ a(x: "{{{{[[[[") b(y: """ {{{{ \\""" [[[ """) } # {{{{{{')).toBe(2);
    expect(textNesting('['.repeat(1_000_000))).toBe(MAX_NESTING + 1);
  });

  it('refuses deep nesting and too many tokens as a ValidationError, without recursing', () => {
    const deep = `{ tags(type: ${'['.repeat(50_000)}${']'.repeat(50_000)}) { value } }`;
    expect(() => parseWithinLimits(deep)).toThrow(`nests more than ${MAX_NESTING} levels`);
    const selections = `{ ${'a { '.repeat(40_000)}b${' }'.repeat(40_000)} }`;
    expect(() => parseWithinLimits(selections)).toThrow(`nests more than ${MAX_NESTING} levels`);
    const tokens = `{ ${Array.from({ length: 16_000 }, () => 'a').join(' ')} }`;
    expect(() => parseWithinLimits(tokens)).toThrow('more than 15000 tokens');
    expect(parseWithinLimits('{ tags { value } }').definitions).toHaveLength(1);
  });
});
