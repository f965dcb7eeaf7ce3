import { afterAll, beforeAll, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });
it('probe', async () => {
  const qs = [
    'mutation { createTag(input: {value: "ok", colour: "red"}) { value } }',
    'mutation { createEnvironment(input: {name: "x", type: "t", sortOrder: "high"}) { name } }',
    'mutation { createTag(input: {value: "x"}) { value } }',
    'mutation { createTag(input: {value: "ok"}) { value bogus } }',
    'mutation { deleteProject(input: {id: "default"}) }',
    '{ tags { value ',
    '{ events(first: 0) { totalCount } }',
    '{ events(after: "zzz") { totalCount } }',
  ];
  for (const q of qs) {
    const r = await app.post('/graphql', { query: q });
    console.log(q, r.status, JSON.stringify(r.body));
  }
  const v = await app.post('/graphql', { query: 'mutation M($i: CreateEnvironmentInput!) { createEnvironment(input: $i) { name } }', variables: { i: { name: 'x', type: 't', sortOrder: 'high', extra: 1 } } });
  console.log(v.status, JSON.stringify(v.body));
  const h = await app.get('/graphql', { token: null, headers: { accept: 'text/html' } });
  console.log(h.status, h.headers.get('content-type'), String(h.body).slice(0, 200));
  const t = await app.request('POST', '/graphql', undefined, { raw: '{tags{value}}', headers: { 'content-type': 'text/plain' } });
  console.log(t.status, JSON.stringify(t.body));
  const g = await app.get('/graphql?query=' + encodeURIComponent('{tags{value}}'));
  console.log(g.status, JSON.stringify(g.body));
});
