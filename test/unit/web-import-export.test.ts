import { describe, expect, it } from '@jest/globals';
import { actionCounts, diffLines, exportFileName, exportInput, parseImportText, strategyLine, type ImportChangeLike } from '../../web/src/logic/import-export';

describe('reading what the user pastes or uploads', () => {
  it('takes an export as is, and the data of a whole import payload', () => {
    const data = { features: [{ name: 'a' }, { name: 'b' }], featureStrategies: [], tagTypes: [] };
    expect(parseImportText(JSON.stringify(data))).toEqual({ ok: true, data, features: ['a', 'b'] });
    expect(parseImportText(JSON.stringify({ project: 'p', environment: 'development', data }))).toEqual({ ok: true, data, features: ['a', 'b'] });
  });

  it('says what is wrong with text that is no export', () => {
    expect(parseImportText('  ')).toEqual({ ok: false, error: 'Paste an export or choose a file.' });
    const notJson = parseImportText('{"features": [');
    expect(notJson.ok).toBe(false);
    expect(!notJson.ok && notJson.error).toMatch(/^This is not JSON: /);
    expect(parseImportText('[1, 2]')).toEqual({ ok: false, error: 'An export is a JSON object with a "features" list.' });
    expect(parseImportText('{"featureStrategies": []}')).toEqual({ ok: false, error: 'An export has a "features" list: this JSON has none.' });
  });

  it('lists the names it can read, leaving the rest to the service to refuse', () => {
    const parsed = parseImportText(JSON.stringify({ features: [{ name: 'ok' }, { nom: 'x' }, 3] }));
    expect(parsed.ok && parsed.features).toEqual(['ok']);
  });
});

describe('the export', () => {
  it('names the file after what it holds', () => {
    const when = new Date('2026-03-04T10:00:00Z');
    expect(exportFileName({ project: 'shop' }, 'production', when)).toBe('flagdeck-shop-production-2026-03-04.json');
    expect(exportFileName({ project: 'shop', features: ['new checkout'] }, 'development', when)).toBe('flagdeck-shop-new_checkout-development-2026-03-04.json');
    expect(exportFileName({ project: 'shop', features: ['a', 'b', 'c'] }, 'development', when)).toBe('flagdeck-shop-3-flags-development-2026-03-04.json');
  });

  it('asks for the flags chosen, or the whole project', () => {
    expect(exportInput({ project: 'shop', features: ['a'] }, 'development')).toEqual({ environment: 'development', features: ['a'] });
    expect(exportInput({ project: 'shop' }, 'production')).toEqual({ environment: 'production', project: 'shop' });
  });
});

const rollout = {
  name: 'flexibleRollout', title: null, disabled: false, parameters: { rollout: '30', stickiness: 'userId', groupId: 'g' },
  constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'], caseInsensitive: false, inverted: false }], variants: [{ name: 'wide' }], segments: [],
};

describe('the what-would-change diff', () => {
  it('reads a strategy in one line', () => {
    expect(strategyLine(rollout)).toBe('Gradual rollout: 30% of userId, group id g; when region is one of eu; variants wide');
    expect(strategyLine({ name: 'default', title: 'Everyone', disabled: true, parameters: {}, constraints: [], segments: [4] })).toBe('Everyone: On for everyone; segments 4; (disabled)');
  });

  it('lists each change of a flag, removals before additions', () => {
    const change: ImportChangeLike = {
      feature: 'checkout', action: 'update',
      fields: [{ field: 'description', before: 'old', after: 'new' }, { field: 'impressionData', before: false, after: true }],
      enabled: { before: false, after: true },
      strategies: { added: [rollout], removed: [{ name: 'default', title: null, parameters: {}, constraints: [] }] },
      variants: { before: [], after: [{ name: 'blue', weight: 500 }, { name: 'green', weight: 500 }] },
      tags: { added: [{ type: 'simple', value: 'new' }], removed: [{ type: 'simple', value: 'old' }] },
      dependencies: { added: [{ feature: 'parent', enabled: true, variants: ['on'] }], removed: [] },
    };
    expect(diffLines(change, 'production')).toEqual([
      { kind: 'change', text: 'description: "old" → "new"' },
      { kind: 'change', text: 'impressionData: false → true' },
      { kind: 'change', text: 'Switched on in production' },
      { kind: 'remove', text: 'Strategy Standard: On for everyone' },
      { kind: 'add', text: `Strategy ${strategyLine(rollout)}` },
      { kind: 'change', text: 'Variants in production: none → blue 50%, green 50%' },
      { kind: 'remove', text: 'Tag simple:old' },
      { kind: 'add', text: 'Tag simple:new' },
      { kind: 'add', text: 'Depends on parent enabled (variants on)' },
    ]);
  });

  it('has nothing to say of an unchanged flag, and counts flags by action', () => {
    const same: ImportChangeLike = {
      feature: 'x', action: 'unchanged', fields: [], enabled: null, variants: null,
      strategies: { added: [], removed: [] }, tags: { added: [], removed: [] }, dependencies: { added: [], removed: [] },
    };
    expect(diffLines(same, 'development')).toEqual([]);
    expect(actionCounts([{ action: 'create' }, { action: 'create' }, { action: 'unchanged' }])).toBe('2 new, 1 unchanged');
    expect(actionCounts([])).toBe('no flags');
  });
});
