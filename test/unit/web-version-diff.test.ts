import { describe, expect, it } from '@jest/globals';
import { asOfInstant } from '../../web/src/logic/as-of';
import {
  changeKind, changeWord, diffPathLabel, diffTarget, environmentSummary, environmentsOf, flagSummary, pointerParts, revertActionText,
  shownValue, strategyNames, strategySummary, turnedBack,
} from '../../web/src/logic/version-diff';
import { links } from '../../web/src/routing/links';

// The History tab's pure logic (web/src/logic/version-diff.ts, as-of.ts): diff paths as words, values as text, what a
// revert turns back, the playground's "As of" instant, and the link from an event to its version.

const ID = '8118bc88-f336-4b5e-8ae5-670b71877964';
const strategy = {
  id: ID, name: 'flexibleRollout', title: null, disabled: false, segments: [], variants: [], sortOrder: 0,
  parameters: { groupId: 'h1', rollout: '50', stickiness: 'default' },
  constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'], inverted: false, caseInsensitive: false }],
};

describe('diff paths as words', () => {
  it('reads JSON Pointers, unescaping ~1 and ~0', () => {
    expect(pointerParts('')).toEqual([]);
    expect(pointerParts('/environments/a~1b~0c/enabled')).toEqual(['environments', 'a/b~c', 'enabled']);
    expect(diffTarget('')).toEqual({ kind: 'flag' });
    expect(diffTarget('/description')).toEqual({ kind: 'field', field: 'description' });
    expect(diffTarget('/environments/production')).toEqual({ kind: 'environment', environment: 'production' });
    expect(diffTarget('/environments/production/variants')).toEqual({ kind: 'environmentField', environment: 'production', field: 'variants' });
    expect(diffTarget(`/environments/production/strategies/${ID}`)).toEqual({ kind: 'strategy', environment: 'production', strategyId: ID });
    expect(diffTarget(`/environments/production/strategies/${ID}/constraints`))
      .toEqual({ kind: 'strategyField', environment: 'production', strategyId: ID, field: 'constraints' });
  });

  it('names each kind of path, strategies by their type name (and title), else by the start of their id', () => {
    const names = new Map([[ID, 'flexibleRollout']]);
    expect(diffPathLabel('')).toBe('the flag');
    expect(diffPathLabel('/description')).toBe('description');
    expect(diffPathLabel('/impressionData')).toBe('impression data');
    expect(diffPathLabel('/archivedAt')).toBe('archived');
    expect(diffPathLabel('/environments/production')).toBe('production');
    expect(diffPathLabel('/environments/production/enabled')).toBe('production › enabled');
    expect(diffPathLabel(`/environments/production/strategies/${ID}`, names)).toBe('production › strategy flexibleRollout');
    expect(diffPathLabel(`/environments/production/strategies/${ID}/constraints`, names)).toBe('production › strategy flexibleRollout › constraints');
    expect(diffPathLabel(`/environments/production/strategies/${ID}/sortOrder`)).toBe('production › strategy 8118bc88 › sort order');
    expect(diffPathLabel('/environments/a~1b/enabled')).toBe('a/b › enabled');
  });

  it('finds strategy names in the flag as it is, strategies added or removed whole, and whole environments and flags', () => {
    const names = strategyNames([
      { path: `/environments/development/strategies/${ID}`, before: null, after: strategy },
      { path: '/environments/staging', before: null, after: { name: 'staging', enabled: true, strategies: [{ id: 's2', name: 'userWithId', title: 'Beta' }] } },
      { path: '', before: null, after: { environments: [{ name: 'production', strategies: [{ id: 's3', name: 'default' }] }] } },
    ], [{ id: 'now', name: 'remoteAddress', title: ' ' }]);
    expect(Object.fromEntries(names)).toEqual({ now: 'remoteAddress', [ID]: 'flexibleRollout', s2: 'userWithId “Beta”', s3: 'default' });
  });
});

describe('diff values as text', () => {
  it('tells added, removed and changed apart (the flag itself is created or deleted)', () => {
    expect(changeKind({ path: '/description', before: null, after: 'x' })).toBe('added');
    expect(changeKind({ path: '/description', before: 'x', after: null })).toBe('removed');
    expect(changeKind({ path: '/description', before: 'x', after: 'y' })).toBe('changed');
    expect(changeWord({ path: '', before: null, after: {} })).toBe('created');
    expect(changeWord({ path: '', before: {}, after: null })).toBe('deleted');
    expect(changeWord({ path: `/environments/p/strategies/${ID}`, before: null, after: strategy })).toBe('added');
  });

  it('shows text in quotes, switches as on/off, tags as type:value, absence in words, lists and objects as pretty JSON', () => {
    expect(shownValue('/description', 'Before any change')).toEqual({ text: '“Before any change”', block: false });
    expect(shownValue('/description', '')).toEqual({ text: '(empty)', block: false });
    expect(shownValue('/description', null)).toEqual({ text: '(none)', block: false });
    expect(shownValue('/environments/development/enabled', true).text).toBe('on');
    expect(shownValue('/environments/development/enabled', false).text).toBe('off');
    expect(shownValue(`/environments/d/strategies/${ID}/disabled`, true).text).toBe('disabled');
    expect(shownValue('/stale', false).text).toBe('not stale');
    expect(shownValue(`/environments/d/strategies/${ID}/sortOrder`, 2).text).toBe('2');
    expect(shownValue('/tags', [{ type: 'simple', value: 'a' }, { type: 'team', value: 'b' }]).text).toBe('simple:a, team:b');
    expect(shownValue('/tags', []).text).toBe('(none)');
    expect(shownValue('/archivedAt', null).text).toBe('(not archived)');
    expect(shownValue('/archivedAt', '2030-01-02T03:04:05.000Z').text).toBe('2030-01-02T03:04:05.000Z');
    expect(shownValue(`/environments/d/strategies/${ID}/parameters`, { rollout: '50' })).toEqual({ text: '{\n  "rollout": "50"\n}', block: true });
  });

  it('summarises whole strategies, environments and flags', () => {
    expect(strategySummary(strategy)).toBe('flexibleRollout: 50% of default, group id h1 · 1 constraint');
    expect(strategySummary({ ...strategy, title: 'Beta', disabled: true, variants: [{}, {}], constraints: [] })).toBe('flexibleRollout “Beta”: 50% of default, group id h1 · 2 variants · disabled');
    expect(shownValue(`/environments/d/strategies/${ID}`, strategy)).toEqual({ text: strategySummary(strategy), block: false });
    expect(environmentSummary({ enabled: true, strategies: [strategy], variants: [] })).toBe('on · 1 strategy · 0 variants');
    expect(shownValue('/environments/d', null).text).toBe('(none)');
    const flag = { type: 'release', project: 'default', description: 'first', archivedAt: null, environments: [{ name: 'development', enabled: true }, { name: 'production', enabled: false }] };
    expect(flagSummary(flag)).toBe('release · project default · “first” · on in development');
    expect(flagSummary({ ...flag, description: null, environments: [], archivedAt: '2030-01-01T00:00:00Z' })).toBe('release · project default · no description · off everywhere · archived');
    expect(shownValue('', null).text).toBe('(did not exist)');
  });
});

describe('what a revert turns back', () => {
  it('turns the diff from a version to now round, so it reads from now to that version', () => {
    const sinceVersion = [
      { path: '/description', before: 'Before any change', after: 'After the first change' },
      { path: `/environments/development/strategies/${ID}`, before: null, after: strategy },
      { path: '/environments/development/enabled', before: false, after: true },
    ];
    const back = turnedBack(sinceVersion);
    expect(back.map((e) => [e.path, changeKind(e)])).toEqual([
      ['/description', 'changed'], [`/environments/development/strategies/${ID}`, 'removed'], ['/environments/development/enabled', 'changed'],
    ]);
    expect(back[0]).toEqual({ path: '/description', before: 'After the first change', after: 'Before any change' });
    expect(back[2]).toEqual({ path: '/environments/development/enabled', before: true, after: false });
    expect(environmentsOf([...back, { path: '/environments/production', before: null, after: {} }])).toEqual(['development', 'production']);
  });

  it('says what each change of a revert did', () => {
    expect(revertActionText({ action: 'updateFeature', environment: null })).toBe('Update the details');
    expect(revertActionText({ action: 'deleteStrategy', environment: 'development', payload: { id: ID } })).toBe('Delete a strategy in development');
    expect(revertActionText({ action: 'updateEnabled', environment: 'production', payload: { enabled: false } })).toBe('Switch off in production');
    expect(revertActionText({ action: 'somethingNew' })).toBe('somethingNew');
  });
});

describe('the playground\'s "As of" instant', () => {
  it('is now when blank, an instant with an offset as given, one without as local time', () => {
    expect(asOfInstant('  ')).toEqual({ ok: true, iso: null });
    expect(asOfInstant('2030-01-02T12:45:00Z')).toEqual({ ok: true, iso: '2030-01-02T12:45:00.000Z' });
    expect(asOfInstant('2030-01-02T12:45:00.123+02:00')).toEqual({ ok: true, iso: '2030-01-02T10:45:00.123Z' });
    expect(asOfInstant('2030-01-02 13:45')).toEqual({ ok: true, iso: new Date(2030, 0, 2, 13, 45).toISOString() });
    expect(asOfInstant('2030-01-02T13:45:07')).toEqual({ ok: true, iso: new Date(2030, 0, 2, 13, 45, 7).toISOString() });
    expect(asOfInstant('2030-01-02')).toEqual({ ok: true, iso: new Date(2030, 0, 2).toISOString() });
  });

  it('refuses what is not a date and time, or not on the calendar', () => {
    for (const text of ['yesterday', '2030-02-31 10:00', '2030-13-01', '12:00']) expect(asOfInstant(text).ok).toBe(false);
  });
});

describe('the link from an event to its version', () => {
  it('opens the flag\'s History tab at the event', () => {
    expect(links.flagHistory('default', 'a/b', 12)).toBe('/projects/default/features/a%2Fb?tab=history#event-12');
    expect(links.flagHistory('default', 'f')).toBe('/projects/default/features/f?tab=history');
  });
});
