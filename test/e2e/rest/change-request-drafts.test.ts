import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12, part 3: drafts. A change (or several) goes into the caller's Draft for a project environment; each action's
 * payload is validated as its own shape; what a change names must exist; the author discards changes and renames
 * the request; anyone comments. Every step that changes the request writes its event.
 */
let app: TestApp;
type As = { token: null; headers: { cookie: string; 'content-type': string } };
let ann: As;
let bob: As;
const P = '/api/admin/projects/crd';
const CR = `${P}/environments/production/change-requests`;
let strategyId: string;
let segment: number;

const login = async (username: string): Promise<As> => {
  const res = await app.post('/auth/simple/login', { username, password: 'Change-Drafts-42' }, { token: null });
  // JSON, as the UI sends every change: a change signed in by the session cookie must declare it (src/app.ts, cookieWriteRefusal).
  return { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], 'content-type': 'application/json' } };
};

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/projects', { id: 'crd', name: 'Drafts' });
  await app.post(`${P}/environments`, { environment: 'production' });
  for (const name of ['crd-a', 'crd-b']) await app.post(`${P}/features`, { name });
  strategyId = (await app.post(`${P}/features/crd-a/environments/production/strategies`, { name: 'default' })).body.id;
  segment = (await app.post('/api/admin/segments', { name: 'crd-seg', constraints: [] })).body.id;
  await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 2 });
  const ids: number[] = [];
  for (const username of ['crd-ann', 'crd-bob']) ids.push((await app.post('/api/admin/user-admin', { username, password: 'Change-Drafts-42', rootRole: 'Editor' })).body.id);
  await app.post(`${P}/access`, { roles: [4], users: ids.map((id) => ({ id })) });
  ann = await login('crd-ann');
  bob = await login('crd-bob');
});
afterAll(async () => { await app.close(); });

describe('drafts', () => {
  let draft: number;

  it('a first change creates the caller\'s Draft with the environment\'s approvals; later ones are added to it', async () => {
    const first = await app.post(CR, { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: true } }, ann);
    expect(first.status).toBe(200);
    draft = first.body.id;
    expect(first.body).toMatchObject({
      id: draft, title: `Change request #${draft}`, environment: 'production', project: 'crd', state: 'Draft', minApprovals: 2,
      createdBy: { username: 'crd-ann', imageUrl: null }, approvals: [], rejections: [], comments: [], segments: [],
    });
    expect(first.body.features).toEqual([{ name: 'crd-a', changes: [{ id: expect.any(Number), action: 'updateEnabled', payload: { enabled: true }, createdBy: { username: 'crd-ann', imageUrl: null }, createdAt: expect.any(String) }] }]);
    const more = await app.post(CR, [
      { action: 'addStrategy', feature: 'crd-b', payload: { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'crd-b' }, constraints: [] } },
      { action: 'updateStrategy', feature: 'crd-a', payload: { id: strategyId, name: 'default', parameters: {} } },
      { action: 'updateSegment', payload: { id: segment, name: 'crd-seg', constraints: [] } },
    ], ann);
    expect(more.body.id).toBe(draft);
    expect(more.body.features.map((f: any) => [f.name, f.changes.map((c: any) => c.action)])).toEqual([['crd-a', ['updateEnabled', 'updateStrategy']], ['crd-b', ['addStrategy']]]);
    expect(more.body.segments).toEqual([{ id: segment, name: 'crd-seg', changes: [expect.objectContaining({ action: 'updateSegment' })] }]);
    expect((await app.events('change-request-created')).map((e) => [e.project, e.environment, e.data.changeRequestId])).toEqual([['crd', 'production', draft]]);
    expect(await app.events('change-added')).toHaveLength(4);
    // Another author gets a Draft of their own.
    const other = await app.post(CR, { action: 'archiveFeature', feature: 'crd-b' }, bob);
    // The next number: adding to an existing Draft used none up (people read the numbers as a sequence).
    expect(other.body.id).toBe(draft + 1);
  });

  it('reads one, the open ones and the pending ones of a feature', async () => {
    const one = await app.get(`${P}/change-requests/${draft}`);
    expect(one.status).toBe(200);
    expect((await app.get(`${P}/change-requests/open`)).body.map((r: any) => r.createdBy.username)).toEqual(['crd-bob', 'crd-ann']);
    expect((await app.get(`${P}/change-requests/pending/crd-a`)).body.map((r: any) => r.id)).toEqual([draft]);
    expect((await app.get(`${P}/change-requests/pending/crd-none`)).body).toEqual([]);
    for (const path of [`${P}/change-requests/99999`, `${P}/change-requests/abc`, `/api/admin/projects/default/change-requests/${draft}`]) {
      const res = await app.get(path);
      expect([path, res.status, res.body.name]).toEqual([path, 404, 'NotFoundError']);
    }
  });

  it('the author renames it and discards changes; the last one discards the request; others may not', async () => {
    expect((await app.put(`${P}/change-requests/${draft}/title`, { title: 'Roll out crd' }, ann)).status).toBe(204);
    expect((await app.get(`${P}/change-requests/${draft}`)).body.title).toBe('Roll out crd');
    const byBob = await app.put(`${P}/change-requests/${draft}/title`, { title: 'Mine now' }, bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'ForbiddenError']);
    const changes = (await app.get(`${P}/change-requests/${draft}`)).body.features.flatMap((f: any) => f.changes.map((c: any) => c.id));
    const bobDiscard = await app.del(`${P}/change-requests/${draft}/changes/${changes[0]}`, bob);
    expect([bobDiscard.status, bobDiscard.body.name]).toEqual([403, 'ForbiddenError']);
    expect((await app.del(`${P}/change-requests/${draft}/changes/${changes[0]}`, ann)).status).toBe(200);
    expect((await app.del(`${P}/change-requests/${draft}/changes/${changes[0]}`, ann)).status).toBe(404);
    expect((await app.del(`${P}/change-requests/${draft}/changes/nope`, ann)).status).toBe(404);
    expect(await app.events('change-discarded')).toHaveLength(1);
    const rest = (await app.get(`${P}/change-requests/${draft}`)).body;
    const remaining = [...rest.features.flatMap((f: any) => f.changes), ...rest.segments.flatMap((s: any) => s.changes)].map((c: any) => c.id);
    for (const id of remaining) expect((await app.del(`${P}/change-requests/${draft}/changes/${id}`, ann)).status).toBe(200);
    expect((await app.get(`${P}/change-requests/${draft}`)).status).toBe(404);
    expect((await app.events('change-request-discarded')).map((e) => e.data.changeRequestId)).toEqual([draft]);
  });

  it('anyone comments (201); an empty comment is a 400', async () => {
    const [open] = (await app.get(`${P}/change-requests/open`)).body;
    const res = await app.post(`${P}/change-requests/${open.id}/comments`, { text: 'Looks right' }, ann);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), text: 'Looks right', createdBy: { username: 'crd-ann', imageUrl: null }, createdAt: expect.any(String) });
    expect((await app.get(`${P}/change-requests/${open.id}`)).body.comments).toEqual([res.body]);
    const bad = await app.post(`${P}/change-requests/${open.id}/comments`, { text: '  ' }, ann);
    expect([bad.status, bad.body.name]).toEqual([400, 'ValidationError']);
  });
});

describe('validation of each action\'s payload', () => {
  const cases: Array<[string, unknown, number, string, string]> = [
    ['unknown action', { action: 'renameFeature', feature: 'crd-a', payload: {} }, 400, 'ValidationError', 'action'],
    ['updateEnabled without enabled', { action: 'updateEnabled', feature: 'crd-a', payload: {} }, 400, 'ValidationError', 'payload/enabled'],
    ['updateEnabled, enabled not boolean', { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: 'yes' } }, 400, 'ValidationError', 'payload/enabled'],
    ['addStrategy without name', { action: 'addStrategy', feature: 'crd-a', payload: { parameters: {} } }, 400, 'ValidationError', 'payload/name'],
    ['addStrategy, unknown property', { action: 'addStrategy', feature: 'crd-a', payload: { name: 'default', colour: 1 } }, 400, 'ValidationError', ''],
    ['updateStrategy without id', { action: 'updateStrategy', feature: 'crd-a', payload: { name: 'default' } }, 400, 'ValidationError', 'payload/id'],
    ['deleteStrategy without id', { action: 'deleteStrategy', feature: 'crd-a', payload: {} }, 400, 'ValidationError', 'payload/id'],
    ['patchVariant without variants', { action: 'patchVariant', feature: 'crd-a', payload: {} }, 400, 'ValidationError', 'payload/variants'],
    ['reorderStrategy not a list', { action: 'reorderStrategy', feature: 'crd-a', payload: { id: 'x' } }, 400, 'ValidationError', 'payload'],
    ['addDependency without parent', { action: 'addDependency', feature: 'crd-a', payload: {} }, 400, 'ValidationError', 'payload/feature'],
    ['archiveFeature with a payload', { action: 'archiveFeature', feature: 'crd-a', payload: { now: true } }, 400, 'ValidationError', ''],
    ['deleteSegment, id not a number', { action: 'deleteSegment', payload: { id: 'one' } }, 400, 'ValidationError', 'payload/id'],
    ['feature missing', { action: 'updateEnabled', payload: { enabled: true } }, 400, 'ValidationError', 'feature'],
    ['empty list', [], 400, 'ValidationError', ''],
    ['unknown feature', { action: 'updateEnabled', feature: 'crd-none', payload: { enabled: true } }, 404, 'NotFoundError', ''],
    ['unknown strategy', { action: 'deleteStrategy', feature: 'crd-a', payload: { id: '00000000-0000-4000-8000-000000000000' } }, 404, 'NotFoundError', ''],
    ['unknown segment', { action: 'deleteSegment', payload: { id: 99999 } }, 404, 'NotFoundError', ''],
    ['unknown parent', { action: 'addDependency', feature: 'crd-a', payload: { feature: 'crd-none' } }, 404, 'NotFoundError', ''],
  ];
  it.each(cases)('%s: %s %s', async (_label, body, status, name, path) => {
    const before = (await app.get(`${P}/change-requests/open`)).body;
    const res = await app.post(CR, body, ann);
    expect([res.status, res.body.name]).toEqual([status, name]);
    if (path) expect(res.body.details.map((d: any) => d.path)).toContain(path);
    expect((await app.get(`${P}/change-requests/open`)).body).toEqual(before);
  });

  it('an environment without change requests, an unknown project or environment, and a caller without the permission', async () => {
    // Where none is required, a request may still be made (with the environment's approvals).
    const voluntary = await app.post(`${P}/environments/development/change-requests`, { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: true } }, ann);
    expect([voluntary.status, voluntary.body.environment, voluntary.body.minApprovals]).toEqual([200, 'development', 1]);
    expect((await app.post('/api/admin/projects/nope/environments/production/change-requests', { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: true } })).status).toBe(404);
    expect((await app.post(`${P}/environments/staging/change-requests`, { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: true } })).status).toBe(404);
    await app.post('/api/admin/user-admin', { username: 'crd-viewer', password: 'Change-Drafts-42', rootRole: 'Viewer' });
    const viewer = await login('crd-viewer');
    const res = await app.post(CR, { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: true } }, viewer);
    expect([res.status, res.body.name, res.body.permissions]).toEqual([403, 'NoAccessError', ['UPDATE_FEATURE_ENVIRONMENT']]);
  });

  it('ten concurrent first changes by one author make one Draft holding all ten', async () => {
    const carol = (await app.post('/api/admin/user-admin', { username: 'crd-carol', password: 'Change-Drafts-42', rootRole: 'Editor' })).body.id;
    await app.post(`${P}/access`, { roles: [4], users: [{ id: carol }] });
    const as = await login('crd-carol');
    const answers = await Promise.all(Array.from({ length: 10 }, () => app.post(CR, { action: 'updateEnabled', feature: 'crd-b', payload: { enabled: true } }, as)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect((await app.get(`${P}/change-requests/${answers[0].body.id}`)).body.features[0].changes).toHaveLength(10);
  });
});

describe('GraphQL', () => {
  it('the same requests and steps as REST', async () => {
    const added = await app.post('/graphql', {
      query: `mutation($c: JSON!) { addChangeRequestChanges(input: { project: "crd", environment: "production", changes: $c }) { id state minApprovals features { name changes { id action payload } } } }`,
      variables: { c: { action: 'patchVariant', feature: 'crd-b', payload: { variants: [{ name: 'v1', weightType: 'variable', stickiness: 'default' }] } } },
    });
    const cr = added.body.data.addChangeRequestChanges;
    const rest = (await app.get(`${P}/change-requests/${cr.id}`)).body;
    expect(cr.features).toEqual(rest.features.map((f: any) => ({ name: f.name, changes: f.changes.map((c: any) => ({ id: c.id, action: c.action, payload: c.payload })) })));
    const listed = await app.post('/graphql', { query: '{ changeRequests(project: "crd", state: "Draft") { id } pendingChangeRequests(project: "crd", feature: "crd-b") { id } }' });
    expect(listed.body.data.changeRequests.map((r: any) => r.id)).toEqual((await app.get(`${P}/change-requests/open`)).body.filter((r: any) => r.state === 'Draft').map((r: any) => r.id));
    expect(listed.body.data.pendingChangeRequests.map((r: any) => r.id)).toContain(cr.id);
    const comment = await app.post('/graphql', { query: `mutation { addChangeRequestComment(input: { project: "crd", id: ${cr.id}, text: "via GraphQL" }) { text createdBy { username } } }` });
    expect(comment.body.data.addChangeRequestComment).toEqual({ text: 'via GraphQL', createdBy: { username: 'admin' } });
    const title = await app.post('/graphql', { query: `mutation { setChangeRequestTitle(input: { project: "crd", id: ${cr.id}, title: "Variants" }) { title } }` });
    expect(title.body.data.setChangeRequestTitle.title).toBe('Variants');
    const bad = await app.post('/graphql', { query: '{ changeRequests(project: "crd", state: "Done") { id } }' });
    expect(bad.body.errors[0].extensions.name).toBe('ValidationError');
    const missing = await app.post('/graphql', { query: '{ changeRequest(project: "crd", id: 99999) { id } }' });
    expect(missing.body.errors[0].extensions.name).toBe('NotFoundError');
  });
});

describe('editing a change (spec endpoint 9)', () => {
  it('replaces the change: a new id, the old id now 404; only the author; each payload validated; event change-edited', async () => {
    const cr = (await app.post(CR, { action: 'addStrategy', feature: 'crd-a', payload: { name: 'default', parameters: {} } }, ann)).body;
    const old = cr.features.find((f: any) => f.name === 'crd-a').changes.at(-1).id;
    const path = `${P}/change-requests/${cr.id}/changes/${old}`;
    const edited = await app.put(path, { action: 'addStrategy', feature: 'crd-a', payload: { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: 'crd-a' } } }, ann);
    expect(edited.status).toBe(200);
    const changes = edited.body.features.find((f: any) => f.name === 'crd-a').changes;
    const fresh = changes.at(-1);
    expect(fresh.id).not.toBe(old);
    expect(fresh).toMatchObject({ action: 'addStrategy', payload: { name: 'flexibleRollout', parameters: { rollout: '10' } } });
    expect(changes.map((c: any) => c.id)).not.toContain(old);
    const again = await app.put(path, { action: 'addStrategy', feature: 'crd-a', payload: { name: 'default' } }, ann);
    expect([again.status, again.body.name]).toEqual([404, 'NotFoundError']);
    const [event] = await app.events('change-edited');
    expect(event).toMatchObject({ project: 'crd', environment: 'production', featureName: 'crd-a', data: { changeRequestId: cr.id, change: { id: fresh.id, action: 'addStrategy' } }, preData: { changeRequestId: cr.id, change: { id: old } } });

    const next = `${P}/change-requests/${cr.id}/changes/${fresh.id}`;
    const byBob = await app.put(next, { action: 'updateEnabled', feature: 'crd-a', payload: { enabled: false } }, bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'ForbiddenError']);
    for (const [body, status, name] of [
      [{ action: 'updateEnabled', feature: 'crd-a', payload: {} }, 400, 'ValidationError'],
      [{ action: 'nope', feature: 'crd-a' }, 400, 'ValidationError'],
      [[{ action: 'archiveFeature', feature: 'crd-a' }], 400, 'ValidationError'],
      [{ action: 'deleteStrategy', feature: 'crd-a', payload: { id: '00000000-0000-4000-8000-000000000000' } }, 404, 'NotFoundError'],
      [{ action: 'updateEnabled', feature: 'crd-none', payload: { enabled: true } }, 404, 'NotFoundError'],
    ] as const) {
      const res = await app.put(next, body, ann);
      expect([body, res.status, res.body.name]).toEqual([body, status, name]);
    }
    for (const p of [`${P}/change-requests/99999/changes/${fresh.id}`, `${P}/change-requests/${cr.id}/changes/99999`, `${P}/change-requests/x/changes/y`]) {
      const res = await app.put(p, { action: 'archiveFeature', feature: 'crd-a' }, ann);
      expect([p, res.status, res.body.name]).toEqual([p, 404, 'NotFoundError']);
    }
    // The failed edits left the change in place.
    expect((await app.get(`${P}/change-requests/${cr.id}`)).body.features.find((f: any) => f.name === 'crd-a').changes.at(-1).id).toBe(fresh.id);
    const gql = await app.post('/graphql', { query: `mutation($c: JSON!) { editChangeRequestChange(input: { project: "crd", id: ${cr.id}, changeId: ${fresh.id}, change: $c }) { features { name changes { id action } } } }`, variables: { c: { action: 'archiveFeature', feature: 'crd-a' } } }, { token: null, headers: ann.headers });
    const last = gql.body.data.editChangeRequestChange.features.find((f: any) => f.name === 'crd-a').changes.at(-1);
    expect(last.action).toBe('archiveFeature');
    expect(last.id).not.toBe(fresh.id);
  });
});
