import { describe, expect, it } from '@jest/globals';
import type { FeatureStrategy, FeatureSummary } from '../../src/domain/features/feature.shapes';
import { importSchema } from '../../src/domain/import-export/import-payload';
import { planImport, type ImportState } from '../../src/domain/import-export/import-plan';

/**
 * The import planner without a database (issue 13): which permission lines an import needs follows from what it
 * would change, one condition per line; and what it would change is computed item by item.
 */
const existing: FeatureSummary = {
  name: 'old', type: 'release', description: null, project: 'p', stale: false, impressionData: false, createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null, archived: false, lastSeenAt: null, favorite: false,
};
const stored: FeatureStrategy = {
  id: '00000000-0000-4000-8000-000000000001', name: 'default', title: null, disabled: false, featureName: 'old', sortOrder: 0, segments: [],
  constraints: [], variants: [], parameters: {},
};

function state(): ImportState {
  return {
    project: { id: 'p', featureLimit: null, naming: { pattern: null, example: null, description: null }, activeFeatures: 1 },
    environment: { exists: true, linked: true },
    strategyDefinitions: new Map([['default', { builtIn: true }], ['flexibleRollout', { builtIn: true }]]),
    contextFields: new Map([['userId', new Set<string>()]]),
    features: new Map([['old', existing]]),
    segments: new Map(),
    tagTypes: new Set(['simple']),
    featureTypes: new Set(['release', 'experiment']),
    strategies: new Map([['old', [stored]]]),
    environments: new Map([['old', { enabled: true, variants: [] }]]),
    tags: new Map([['old', []]]),
    edges: [],
    permissionNames: new Map([['CREATE_FEATURE', 'Create feature toggles'], ['UPDATE_FEATURE', 'Update feature toggles']]),
  };
}

/** The old feature as it is: importing only this changes nothing. */
const same = { features: [{ name: 'old' }], featureStrategies: [{ name: 'default', featureName: 'old', parameters: {} }], tagTypes: [] as Array<{ name: string }> };
const plan = (data: Record<string, unknown>) => planImport(importSchema.parse({ project: 'p', environment: 'e', data: { ...same, ...data } }), state(), () => false);

describe('planImport: the permission lines', () => {
  it.each([
    ['nothing changes', {}, ['UPDATE_FEATURE']],
    ['a new feature', { features: [{ name: 'old' }, { name: 'new' }] }, ['CREATE_FEATURE', 'UPDATE_FEATURE']],
    ['a new context field', { contextFields: [{ name: 'tenant' }] }, ['UPDATE_FEATURE', 'CREATE_CONTEXT_FIELD']],
    ['a strategy added', { featureStrategies: [...same.featureStrategies, { name: 'flexibleRollout', featureName: 'old', sortOrder: 1 }] }, ['UPDATE_FEATURE', 'CREATE_FEATURE_STRATEGY']],
    ['a strategy removed (and the environment switched off for lack of one)', { featureStrategies: [] }, ['UPDATE_FEATURE', 'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT']],
    ['environment variants', { featureEnvironments: [{ featureName: 'old', enabled: true, variants: [{ name: 'a', weightType: 'variable', stickiness: 'default' }] }] }, ['UPDATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS']],
    ['a new tag type', { tagTypes: [{ name: 'team' }] }, ['UPDATE_FEATURE', 'CREATE_TAG_TYPE']],
    ['the switch', { featureEnvironments: [{ featureName: 'old', enabled: false }] }, ['UPDATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT']],
    ['a dependency', { features: [{ name: 'old' }, { name: 'kid' }], dependencies: [{ feature: 'kid', dependencies: [{ feature: 'old' }] }] }, ['CREATE_FEATURE', 'UPDATE_FEATURE', 'UPDATE_FEATURE_DEPENDENCY']],
  ])('%s', (_label, data, required) => {
    const p = plan(data);
    expect(p.report.errors).toEqual([]);
    expect(p.required).toEqual(required);
    // Lines are named by display name where the instance has one.
    const display = (r: string) => state().permissionNames.get(r) ?? r;
    expect(p.report.permissions).toEqual([{ message: 'We detected you are missing the following permissions:', affectedItems: required.map(display) }]);
  });

  it('an admin (every permission held) gets no permission line', () => {
    const p = planImport(importSchema.parse({ project: 'p', environment: 'e', data: { ...same, features: [{ name: 'new' }] } }), state(), () => true);
    expect(p.report.permissions).toEqual([]);
  });
});

describe('planImport: what would change', () => {
  it('keeps equal strategies whatever their key order or id, and replaces only the ones that differ', () => {
    const p = plan({ featureStrategies: [{ id: 'from-elsewhere', parameters: {}, featureName: 'old', name: 'default', constraints: [] }] });
    expect(p.report.changes[0]).toMatchObject({ feature: 'old', action: 'unchanged', strategies: { added: [], removed: [] } });
    const q = plan({ featureStrategies: [{ name: 'default', featureName: 'old', title: 'Titled' }] });
    expect(q.report.changes[0].strategies.removed).toEqual([stored]);
    expect(q.report.changes[0].strategies.added).toEqual([expect.objectContaining({ name: 'default', title: 'Titled' })]);
  });

  it('a switch on without an active strategy stays on (the writer adds the default); left on without one, it goes off', () => {
    const on = plan({ features: [{ name: 'new' }], featureStrategies: [], featureEnvironments: [{ featureName: 'new', enabled: true }] });
    expect(on.report.changes[0].enabled).toEqual({ before: false, after: true });
    const off = plan({ featureStrategies: [] });
    expect(off.report.changes[0].enabled).toEqual({ before: true, after: false });
  });

  it('tags and dependencies are left alone unless the payload lists them', () => {
    const p = plan({});
    expect(p.report.changes[0].tags).toEqual({ added: [], removed: [] });
    const t = plan({ featureTags: [{ featureName: 'old', tagType: 'simple', tagValue: 'web' }, { featureName: 'old', type: 'simple', value: 'web' }] });
    expect(t.report.changes[0].tags).toEqual({ added: [{ type: 'simple', value: 'web' }], removed: [] });
  });
});
