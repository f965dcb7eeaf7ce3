import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const P = '/api/admin/projects/default/features';

const GqlFeatEventsPage = graphql(`
  query GqlFeatEventsPage($first: Int) {
    project(id: "default") {
      features(first: 1000) {
        nodes { name events(first: $first) { totalCount pageInfo { hasNextPage } nodes { id type featureName } } }
      }
    }
  }
`);

async function createWithHistory(name: string): Promise<void> {
  expect((await app.post(P, { name })).status).toBe(201);
  expect((await app.put(`${P}/${name}`, { description: 'changed' })).status).toBe(200);
  expect((await app.post(`${P}/${name}/environments/development/on`)).status).toBe(200);
}

async function run(first: number) {
  app.resetQueryCount();
  const res = await app.gql(GqlFeatEventsPage, { first });
  expect(res.body.errors).toBeUndefined();
  return { nodes: res.body.data!.project.features.nodes, statements: app.queries.length };
}

describe('Feature.events in a list of features', () => {
  it('returns each feature\'s newest events as REST lists them, in the same number of queries for 2 or 12 features', async () => {
    for (const name of ['ev-a', 'ev-b']) await createWithHistory(name);
    const two = await run(2);
    for (let i = 0; i < 10; i++) await createWithHistory(`ev-${i}`);
    const twelve = await run(2);
    expect(twelve.nodes).toHaveLength(12);
    expect(twelve.statements).toBe(two.statements);
    for (const node of twelve.nodes) {
      const rest = (await app.get(`/api/admin/events/${node.name}`)).body;
      expect(node.events.totalCount).toBe(rest.totalEvents);
      expect(node.events.nodes.map((e) => e.id)).toEqual(rest.events.slice(0, 2).map((e: any) => e.id));
      expect(node.events.pageInfo.hasNextPage).toBe(rest.totalEvents > 2);
      expect(node.events.nodes.every((e) => e.featureName === node.name)).toBe(true);
    }
  });

  it('refuses a page size outside 1..1000 with ValidationError', async () => {
    const res = await app.gql(GqlFeatEventsPage, { first: 0 });
    expect(res.body.errors?.[0].extensions).toMatchObject({ name: 'ValidationError' });
  });
});
