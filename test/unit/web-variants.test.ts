import { describe, expect, it } from '@jest/globals';
import {
  distributeWeights, emptyOverride, emptyVariant, formatPercent, fromVariant, payloadError, percentToPermille, permilleToPercent,
  toVariantInputs, validateVariants, variantErrorAt, type VariantDraft,
} from '../../web/src/logic/variants';

const v = (patch: Partial<VariantDraft>): VariantDraft => ({ ...emptyVariant('v'), ...patch });
const variable = { weightType: 'variable' as const, weight: 0 };
const fix = (weight: number) => ({ weightType: 'fix' as const, weight });

describe('web variants editor logic', () => {
  it('shares 1000 among variable variants, the remainder going to the first: 3 → 334/333/333', () => {
    expect(distributeWeights([variable, variable, variable])).toEqual({ weights: [334, 333, 333], total: 1000 });
    expect(distributeWeights([variable])).toEqual({ weights: [1000], total: 1000 });
    expect(distributeWeights([variable, variable, variable, variable, variable, variable, variable]).weights).toEqual([143, 143, 143, 143, 143, 143, 142]);
    expect(distributeWeights([])).toEqual({ weights: [], total: 0 });
  });

  it('gives fixed variants their weight and the variable ones what is left, always 1000 in total', () => {
    expect(distributeWeights([variable, variable, fix(200)])).toEqual({ weights: [400, 400, 200], total: 1000 });
    expect(distributeWeights([fix(333), variable, variable])).toEqual({ weights: [333, 334, 333], total: 1000 });
    expect(distributeWeights([fix(1000), variable])).toEqual({ weights: [1000, 0], total: 1000 });
    for (let f = 0; f <= 1000; f += 37) {
      for (let n = 1; n <= 7; n++) {
        const { total, error } = distributeWeights([fix(f), ...Array.from({ length: n }, () => variable)]);
        expect([f, n, total, error]).toEqual([f, n, 1000, undefined]);
      }
    }
  });

  it('refuses fixed weights over 100%, and a list with no variable variant', () => {
    const over = distributeWeights([fix(700), fix(400), variable]);
    expect(over.error).toBe('The fixed weights add up to 110%, more than 100%.');
    expect(over.weights).toEqual([700, 400, 0]);
    expect(distributeWeights([fix(1000)]).error).toMatch(/At least one variant must have a variable weight/);
    expect(distributeWeights([fix(-1), variable]).error).toMatch(/between 0% and 100%/);
    expect(validateVariants([v({ name: 'a', ...fix(700) }), v({ name: 'b', ...fix(400) }), v({ name: 'c' })])).toMatchObject({ ok: false, list: expect.stringMatching(/110%/) });
  });

  it('converts percentages to per mille and back', () => {
    expect([percentToPermille(20), percentToPermille(33.3), percentToPermille(0.05)]).toEqual([200, 333, 1]);
    expect([permilleToPercent(200), permilleToPercent(334)]).toEqual([20, 33.4]);
    expect([formatPercent(1000), formatPercent(334), formatPercent(0)]).toEqual(['100%', '33.4%', '0%']);
  });

  it('validates payloads: JSON must parse, numbers must be numbers, a value is needed', () => {
    expect(payloadError('', '')).toBeUndefined();
    expect(payloadError('json', '{"a": [1, 2]}')).toBeUndefined();
    expect(payloadError('json', '{"a": ')).toMatch(/^Not valid JSON: /);
    expect(payloadError('json', "{a: 1}")).toMatch(/^Not valid JSON/);
    expect(payloadError('number', '12.5')).toBeUndefined();
    expect(payloadError('number', 'twelve')).toBe('"twelve" is not a number.');
    expect(payloadError('string', '')).toBe('Enter the payload value.');
    expect(payloadError('csv', 'a,b\n1,2')).toBeUndefined();
    const bad = validateVariants([v({ name: 'a', payloadType: 'json', payloadValue: '{oops}' }), v({ name: 'b' })]);
    expect(bad.ok).toBe(false);
    expect(bad.variants[0].payload).toMatch(/Not valid JSON/);
    expect(bad.variants[1]).toEqual({});
  });

  it('needs unique, present names and complete overrides', () => {
    const r = validateVariants([v({ name: 'a' }), v({ name: ' a ' }), v({ name: '' }), v({ name: 'd', overrides: [emptyOverride('userId')] })]);
    expect(r.variants.map((e) => e.name)).toEqual(['Another variant is named a.', 'Another variant is named a.', 'Enter a name.', undefined]);
    expect(r.variants[3].overrides).toMatch(/at least one value/);
    expect(validateVariants([v({ name: 'a' }), v({ name: 'b' })])).toEqual({ variants: [{}, {}], ok: true });
  });

  it('builds the mutation input with resolved weights, payloads and (for feature variants) overrides, and reads it back', () => {
    const drafts = [
      v({ name: ' blue ', stickiness: 'userId', payloadType: 'json', payloadValue: '{"x":1}', overrides: [{ key: 1, contextName: 'userId', values: ['u1', ' '] }] }),
      v({ name: 'red', ...fix(200) }),
      v({ name: 'green' }),
    ];
    expect(toVariantInputs(drafts, true)).toEqual([
      { name: 'blue', weightType: 'variable', weight: 400, stickiness: 'userId', payload: { type: 'json', value: '{"x":1}' }, overrides: [{ contextName: 'userId', values: ['u1'] }] },
      { name: 'red', weightType: 'fix', weight: 200, stickiness: 'default', overrides: [] },
      { name: 'green', weightType: 'variable', weight: 400, stickiness: 'default', overrides: [] },
    ]);
    expect(toVariantInputs(drafts, false)[1]).toEqual({ name: 'red', weightType: 'fix', weight: 200, stickiness: 'default' });
    const back = fromVariant({ name: 'red', weight: 200, weightType: 'fix', stickiness: 'sessionId', payload: { type: 'csv', value: 'a,b' }, overrides: [{ contextName: 'userId', values: ['u9'] }] });
    expect(back).toMatchObject({ name: 'red', weight: 200, weightType: 'fix', stickiness: 'sessionId', payloadType: 'csv', payloadValue: 'a,b', overrides: [{ contextName: 'userId', values: ['u9'] }] });
    expect(fromVariant({ name: 'x', weight: 500, weightType: 'variable', stickiness: '', payload: null })).toMatchObject({ stickiness: 'default', payloadType: '', payloadValue: '', overrides: [] });
  });

  it('places a refusal detail on the variant and field its path names', () => {
    expect(variantErrorAt('variants/1/payload/value')).toEqual({ index: 1, field: 'payload' });
    expect(variantErrorAt('variants.0.name')).toEqual({ index: 0, field: 'name' });
    expect(variantErrorAt('variants')).toEqual({ index: null, field: null });
    expect(variantErrorAt('constraints/0/value')).toBeNull();
  });
});
