import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/** Issue 13 on the GraphQL door: the same service as REST, so the same answers. */
let app: TestApp;
const must = async (method: string, path: string, body?: unknown) => {
  const res = await app.request(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

beforeAll(async () => {
  app = await startTestApp();
  await must('POST', '/api/admin/projects', { id: 'gsrc', name: 'Source' });
  await must('POST', '/api/admin/projects', { id: 'gdst', name: 'Target' });
  await must('POST', '/api/admin/projects/gsrc/features', { name: 'g-one', description: 'One' });
  await must('POST', '/api/admin/projects/gsrc/features/g-one/environments/development/strategies', {
    name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: 'g-one' }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
  });
  await must('POST', '/api/admin/projects/gsrc/features/g-one/environments/development/on');
  await must('POST', '/api/admin/features/g-one/tags', { type: 'simple', value: 'gql' });
});
afterAll(async () => { await app.close(); });

const GqlIeExport = graphql(`query GqlIeExport($input: ExportFeaturesInput!) { exportFeatures(input: $input) }`);
const GqlIeValidate = graphql(`
  query GqlIeValidate($input: ImportInput!) {
    validateImport(input: $input) {
      errors { message affectedItems }
      warnings { message affectedItems }
      permissions { message affectedItems }
      changes {
        feature action
        fields { field before after }
        strategies { added { name title disabled sortOrder parameters constraints { contextName operator values caseInsensitive inverted } variants { name weight weightType stickiness } segments } removed { id name } }
        enabled { before after }
        variants { before { name } after { name } }
        tags { added { type value } removed { type value } }
        dependencies { added { feature enabled variants } removed { feature enabled variants } }
      }
    }
  }
`);
const GqlIeImport = graphql(`mutation GqlIeImport($input: ImportInput!) { importFeatures(input: $input) { warnings { message affectedItems } changes { feature action } } }`);

describe('exportFeatures, validateImport and importFeatures', () => {
  let data: any;

  it('exportFeatures returns what the REST export returns', async () => {
    const res = await app.gql(GqlIeExport, { input: { project: 'gsrc', environment: 'development' } });
    expect(res.body.errors).toBeUndefined();
    data = res.body.data!.exportFeatures;
    const rest = await app.post('/api/admin/features-batch/export', { project: 'gsrc', environment: 'development' });
    expect(data).toEqual(rest.body);
    expect(data.features.map((f: any) => f.name)).toEqual(['g-one']);
  });

  it('validateImport equals the REST validation (the source moved out first: names are unique per instance)', async () => {
    await must('POST', '/api/admin/projects/gsrc/archive', { features: ['g-one'] });
    await must('POST', '/api/admin/projects/gsrc/delete', { features: ['g-one'] });
    const input = { project: 'gdst', environment: 'development', data };
    const res = await app.gql(GqlIeValidate, { input });
    expect(res.body.errors).toBeUndefined();
    const rest = await app.post('/api/admin/features-batch/validate', input);
    expect(res.body.data!.validateImport).toEqual({
      ...rest.body,
      changes: rest.body.changes.map((c: any) => ({ ...c, strategies: { ...c.strategies, removed: c.strategies.removed.map((s: any) => ({ id: s.id, name: s.name })) } })),
    });
    expect(res.body.data!.validateImport.changes[0]).toMatchObject({ feature: 'g-one', action: 'create', enabled: { before: false, after: true } });
  });

  it('importFeatures imports (events as on REST); a second run changes nothing', async () => {
    const input = { project: 'gdst', environment: 'development', data };
    const first = await app.gql(GqlIeImport, { input });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data!.importFeatures.changes).toEqual([{ feature: 'g-one', action: 'create' }]);
    const [event] = await app.events('features-imported');
    expect(event).toMatchObject({ project: 'gdst', environment: 'development' });
    const second = await app.gql(GqlIeImport, { input });
    expect(second.body.data!.importFeatures.changes).toEqual([{ feature: 'g-one', action: 'unchanged' }]);
    const copy = await app.post('/api/admin/features-batch/export', { project: 'gdst', environment: 'development' });
    expect(copy.body.featureStrategies.map(({ id: _id, ...s }: any) => s)).toEqual(data.featureStrategies.map(({ id: _id, ...s }: any) => s));
  });

  it('errors carry the REST names: ValidationError for a refused import and for a malformed payload', async () => {
    const refused = await app.gql(GqlIeImport, { input: { project: 'gdst', environment: 'development', data: { features: [{ name: 'g-two' }], featureStrategies: [{ name: 'no-such', featureName: 'g-two' }], tagTypes: [] } } });
    expect(refused.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
    const malformed = await app.gql(GqlIeValidate, { input: { project: 'gdst', environment: 'development', data: { features: 'nope' } } });
    expect(malformed.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError', code: 400 });
  });
});
