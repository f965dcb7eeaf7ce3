import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type Reply, type TestApp } from '../../support/harness';

/**
 * Issue 9, groups: /api/admin/groups through the real app. On PostgreSQL the app gets a pool of 20 connections, so the
 * parallel requests below really overlap inside the database; on the embedded database they queue, and every
 * expectation must hold just the same.
 */
if (Number(process.env.TEST_DB_POOL_MAX ?? 1) > 1) process.env.TEST_DB_POOL_MAX = '20';

const G = '/api/admin/groups';
const PASSWORD = 'Groups-Pass-42';

let app: TestApp;
/** An Admin user acting through a personal access token: events must name it, not the admin token. */
let boss: { id: number; token: string };
/** Viewers: `viewer` tries what a Viewer may not do; `ann` and `ben` are members. */
let viewer: { id: number; token: string };
let ann: { id: number; token: string };
let ben: { id: number; token: string };

async function user(username: string, rootRole: string): Promise<{ id: number; token: string }> {
  const created = await app.post('/api/admin/user-admin', { username, email: `${username}@example.com`, name: username, password: PASSWORD, rootRole });
  if (created.status !== 201) throw new Error(`user ${username}: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await app.post('/auth/simple/login', { username, password: PASSWORD }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const pat = await app.post('/api/admin/user/tokens', { description: 'groups', expiresAt: '2100-01-01T00:00:00Z' }, { token: null, headers: { cookie } });
  if (pat.status !== 201) throw new Error(`PAT for ${username}: ${pat.status} ${JSON.stringify(pat.body)}`);
  return { id: Number(created.body.id), token: pat.body.secret as string };
}

const sql = (query: string, params: unknown[] = []): Promise<any[]> => app.orm.em.fork().execute(query, params);
const lastEventId = async () => Number((await sql('select max(id) as id from events'))[0].id ?? 0);
const eventsSince = async (since: number) => (await sql('select id, type, created_by, created_by_user_id, data, pre_data from events where id > ? order by id', [since]))
  .map((r) => ({ id: Number(r.id), type: r.type as string, createdBy: r.created_by as string, createdByUserId: r.created_by_user_id as number | null, data: r.data, preData: r.pre_data }));
const groupRows = () => sql(`select g.id, g.name, g.description, g.mappings_sso, g.root_role_id, g.created_by, g.created_at,
    (select json_agg(json_build_object('user', gu.user_id, 'joined', gu.joined_at, 'by', gu.created_by) order by gu.user_id) from group_user gu where gu.group_id = g.id) as members,
    (select json_agg(json_build_object('role', gr.role_id, 'project', gr.project) order by gr.project, gr.role_id) from group_role gr where gr.group_id = g.id) as roles
  from groups g order by g.id`);

/** Runs `act` and checks that it changed no group, membership or project role of a group, and wrote no event. */
async function changesNothing(act: () => Promise<void>): Promise<void> {
  const rows = await groupRows();
  const since = await lastEventId();
  await act();
  expect(await groupRows()).toEqual(rows);
  expect(await eventsSince(since)).toEqual([]);
}

const asBoss = () => ({ token: boss.token });
const errorOf = (r: Reply) => ({ status: r.status, name: r.body?.name });

beforeAll(async () => {
  app = await startTestApp();
  boss = await user('boss', 'Admin');
  viewer = await user('vera', 'Viewer');
  ann = await user('ann', 'Viewer');
  ben = await user('ben', 'Viewer');
});
afterAll(async () => { await app.close(); });

describe('creating, reading, changing and deleting groups', () => {
  let ops: number;

  it('401 without credentials', async () => {
    for (const r of [await app.get(G, { token: null }), await app.post(G, { name: 'x' }, { token: null })]) {
      expect(errorOf(r)).toEqual({ status: 401, name: 'AuthenticationRequired' });
    }
  });

  it('POST 201: the group in Unleash\'s shape with its members as users (no password hash), and group-created naming the real actor', async () => {
    const since = await lastEventId();
    const res = await app.post(G, { name: 'Ops', description: 'Operators', mappingsSSO: ['sso-ops'], rootRole: 3, users: [{ user: { id: ann.id } }, { id: ben.id }] }, asBoss());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: 'Ops', description: 'Operators', mappingsSSO: ['sso-ops'], rootRole: 3, createdBy: 'boss', createdAt: expect.any(String), userCount: 2,
      users: [
        { joinedAt: expect.any(String), createdBy: 'boss', user: expect.objectContaining({ id: ann.id, username: 'ann', email: 'ann@example.com', rootRole: 3, isAPI: false, accountType: 'User' }) },
        { joinedAt: expect.any(String), createdBy: 'boss', user: expect.objectContaining({ id: ben.id, username: 'ben' }) },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|scrypt/i);
    ops = res.body.id;
    const events = await eventsSince(since);
    expect(events).toEqual([{
      id: expect.any(Number), type: 'group-created', createdBy: 'boss', createdByUserId: boss.id,
      data: { id: ops, name: 'Ops', description: 'Operators', mappingsSSO: ['sso-ops'], rootRole: 3, users: [ann.id, ben.id] }, preData: null,
    }]);
  });

  it('GET lists every group as {groups}, and GET /:id gives the same group; a Viewer may read them', async () => {
    const empty = await app.post(G, { name: 'Empty' });
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ name: 'Empty', description: null, mappingsSSO: [], rootRole: null, userCount: 0, users: [] });
    const one = await app.get(`${G}/${ops}`);
    expect(one.status).toBe(200);
    const list = await app.get(G, { token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ groups: [one.body, empty.body] });
    expect((await app.get(`${G}/${ops}`, { token: viewer.token })).body).toEqual(one.body);
  });

  it('PUT 200 replaces the fields and the members: added members join now, kept ones keep joinedAt; group-updated with preData, and group-user-added / -removed per member', async () => {
    const before = (await app.get(`${G}/${ops}`)).body;
    const annJoined = before.users.find((m: any) => m.user.id === ann.id).joinedAt;
    const since = await lastEventId();
    const res = await app.put(`${G}/${ops}`, { name: 'Operations', mappingsSSO: ['a', 'b'], rootRole: 2, users: [{ user: { id: ann.id } }, { user: { id: viewer.id } }] }, asBoss());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ops, name: 'Operations', description: null, mappingsSSO: ['a', 'b'], rootRole: 2, createdBy: 'boss', createdAt: before.createdAt, userCount: 2 });
    expect(res.body.users.map((m: any) => [m.user.id, m.joinedAt === annJoined])).toEqual([[ann.id, true], [viewer.id, false]]);
    expect(Date.parse(res.body.users[1].joinedAt)).toBeGreaterThan(Date.parse(annJoined));
    expect((await app.get(`${G}/${ops}`)).body).toEqual(res.body);
    expect(await eventsSince(since)).toEqual([{
      id: expect.any(Number), type: 'group-updated', createdBy: 'boss', createdByUserId: boss.id,
      data: { id: ops, name: 'Operations', description: null, mappingsSSO: ['a', 'b'], rootRole: 2, users: [ann.id, viewer.id] },
      preData: { id: ops, name: 'Ops', description: 'Operators', mappingsSSO: ['sso-ops'], rootRole: 3, users: [ann.id, ben.id] },
    }, {
      id: expect.any(Number), type: 'group-user-added', createdBy: 'boss', createdByUserId: boss.id, data: { groupId: ops, userId: viewer.id }, preData: null,
    }, {
      id: expect.any(Number), type: 'group-user-removed', createdBy: 'boss', createdByUserId: boss.id, data: null, preData: { groupId: ops, userId: ben.id },
    }]);
  });

  it('a PUT that changes nothing writes no event; a member listed twice is one member', async () => {
    const body = { name: 'Operations', mappingsSSO: ['a', 'b'], rootRole: 2, users: [{ user: { id: ann.id } }, { id: viewer.id }, { id: ann.id }] };
    let res: Reply | undefined;
    await changesNothing(async () => { res = await app.put(`${G}/${ops}`, body); });
    expect(res!.status).toBe(200);
    expect(res!.body.userCount).toBe(2);
  });

  it('DELETE 200 removes the group, its memberships and its project roles; group-deleted with preData', async () => {
    const doomed = (await app.post(G, { name: 'Doomed', users: [{ user: { id: ann.id } }] })).body;
    expect((await app.post('/api/admin/projects/default/access', { roles: [5], groups: [doomed.id] })).status).toBe(200);
    expect(await sql('select count(*)::int as n from group_role where group_id = ?', [doomed.id])).toEqual([{ n: 1 }]);
    const since = await lastEventId();
    const res = await app.del(`${G}/${doomed.id}`, asBoss());
    expect(res.status).toBe(200);
    expect(errorOf(await app.get(`${G}/${doomed.id}`))).toEqual({ status: 404, name: 'NotFoundError' });
    expect(await sql('select (select count(*)::int from group_user where group_id = ?) as members, (select count(*)::int from group_role where group_id = ?) as roles', [doomed.id, doomed.id]))
      .toEqual([{ members: 0, roles: 0 }]);
    expect((await app.get('/api/admin/projects/default/access')).body.groups).toEqual([]);
    expect(await eventsSince(since)).toEqual([{
      id: expect.any(Number), type: 'group-deleted', createdBy: 'boss', createdByUserId: boss.id, data: null,
      preData: { id: doomed.id, name: 'Doomed', description: null, mappingsSSO: [], rootRole: null, users: [ann.id] },
    }]);
  });

  it('409 NameExistsError for a name taken in any case, on create and on rename; renaming a group to its own name in another case is fine', async () => {
    await changesNothing(async () => {
      expect(errorOf(await app.post(G, { name: 'OPERATIONS' }))).toEqual({ status: 409, name: 'NameExistsError' });
      const empty = (await app.get(G)).body.groups.find((g: any) => g.name === 'Empty');
      const rename = await app.put(`${G}/${empty.id}`, { name: ' operations ' });
      expect(errorOf(rename)).toEqual({ status: 409, name: 'NameExistsError' });
      expect(rename.body.message).toBe('A group with the name operations already exists');
    });
    const self = await app.put(`${G}/${ops}`, { name: 'OPERATIONS', mappingsSSO: ['a', 'b'], rootRole: 2, users: [{ id: ann.id }, { id: viewer.id }] });
    expect(self.status).toBe(200);
    expect(self.body.name).toBe('OPERATIONS');
  });

  it('400 ValidationError naming the property for bad bodies, on create and update; nothing changes', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'ok', rootRole: 4 }, 'rootRole'],
      [{ name: 'ok', rootRole: 99999 }, 'rootRole'],
      [{ name: 'ok', rootRole: 'Editor' }, 'rootRole'],
      [{ name: 'ok', rootRole: 1.5 }, 'rootRole'],
      [{ name: 'ok', users: [{ user: { id: 99999 } }] }, 'users/0'],
      [{ name: 'ok', users: [{ id: ann.id }, { id: 99998 }] }, 'users/1'],
      [{ name: 'ok', users: [ann.id] }, 'users/0'],
      [{ name: 'ok', users: [{ user: { id: -1 } }] }, 'users/0'],
      [{ name: 'ok', users: 'ann' }, 'users'],
      [{ name: 'ok', mappingsSSO: 'x' }, 'mappingsSSO'],
      [{ name: 'ok', mappingsSSO: [''] }, 'mappingsSSO/0'],
      [{ name: 'ok', description: 'x'.repeat(1001) }, 'description'],
      [{ name: 'ok', extra: true }, 'extra'],
      [[], ''],
    ];
    await changesNothing(async () => {
      for (const [body, path] of cases) {
        for (const res of [await app.post(G, body), await app.put(`${G}/${ops}`, body)]) {
          expect({ body, status: res.status, name: res.body.name, path: res.body.details?.[0]?.path?.startsWith(path) ? path : res.body.details?.[0]?.path })
            .toEqual({ body, status: 400, name: 'ValidationError', path });
        }
      }
    });
  });

  it('404 NotFoundError for an unknown or malformed id on GET, PUT and DELETE; nothing changes', async () => {
    await changesNothing(async () => {
      for (const id of ['99999', 'abc', '0', '-1', '1.5', '99999999999', '2147483648', '1e3', ' 1']) {
        const path = `${G}/${encodeURIComponent(id)}`;
        for (const res of [await app.get(path), await app.put(path, { name: 'Whatever' }), await app.del(path)]) {
          expect({ id, ...errorOf(res) }).toEqual({ id, status: 404, name: 'NotFoundError' });
        }
      }
    });
  });

  it('403 NoAccessError naming ADMIN for a Viewer on POST, PUT and DELETE; nothing changes', async () => {
    const token = viewer.token;
    await changesNothing(async () => {
      for (const res of [await app.post(G, { name: 'Mine' }, { token }), await app.put(`${G}/${ops}`, { name: 'Mine' }, { token }), await app.del(`${G}/${ops}`, { token })]) {
        expect(errorOf(res)).toEqual({ status: 403, name: 'NoAccessError' });
        expect(res.body.permissions).toEqual(['ADMIN']);
        expect(res.body.message).toContain('"ADMIN" permission');
      }
    });
  });
});

describe('what membership gives, at once', () => {
  it('a Viewer gains the Editor root role of a group it joins (and loses it when removed)', async () => {
    const cara = await user('cara', 'Viewer');
    const tryCreate = (name: string) => app.post('/api/admin/context', { name }, { token: cara.token });
    expect(errorOf(await tryCreate('cara-1'))).toEqual({ status: 403, name: 'NoAccessError' });
    const editors = (await app.post(G, { name: 'Editors', rootRole: 2, users: [{ user: { id: cara.id } }] })).body;
    expect((await tryCreate('cara-1')).status).toBe(201);
    expect((await app.put(`${G}/${editors.id}`, { name: 'Editors', rootRole: 2, users: [] })).status).toBe(200);
    expect(errorOf(await tryCreate('cara-2'))).toEqual({ status: 403, name: 'NoAccessError' });
    expect((await app.put(`${G}/${editors.id}`, { name: 'Editors', rootRole: 2, users: [{ id: cara.id }] })).status).toBe(200);
    expect((await tryCreate('cara-2')).status).toBe(201);
    expect((await app.put(`${G}/${editors.id}`, { name: 'Editors', rootRole: 3, users: [{ id: cara.id }] })).status).toBe(200);
    expect(errorOf(await tryCreate('cara-3'))).toEqual({ status: 403, name: 'NoAccessError' });
  });

  it('a group holding a project role gives its members that project\'s permissions, in that project only; deleting the group takes them away', async () => {
    const dan = await user('dan', 'Viewer');
    expect((await app.post('/api/admin/projects', { id: 'gp', name: 'GP' })).status).toBe(201);
    const team = (await app.post(G, { name: 'GP team', users: [{ user: { id: dan.id } }] })).body;
    const tryCreate = (project: string, name: string) => app.post(`/api/admin/projects/${project}/features`, { name }, { token: dan.token });
    expect(errorOf(await tryCreate('gp', 'gp-1'))).toEqual({ status: 403, name: 'NoAccessError' });
    expect((await app.post('/api/admin/projects/gp/access', { roles: [5], groups: [team.id] })).status).toBe(200);
    expect((await tryCreate('gp', 'gp-1')).status).toBe(201);
    expect(errorOf(await tryCreate('default', 'gp-2'))).toEqual({ status: 403, name: 'NoAccessError' });
    const access = (await app.get('/api/admin/projects/gp/access')).body;
    expect(access.groups).toEqual([expect.objectContaining({ id: team.id, name: 'GP team', roles: [5], users: [expect.objectContaining({ user: expect.objectContaining({ id: dan.id }) })] })]);
    expect((await app.del(`${G}/${team.id}`)).status).toBe(200);
    expect(errorOf(await tryCreate('gp', 'gp-3'))).toEqual({ status: 403, name: 'NoAccessError' });
  });

  it('deleting a user removes it from its groups', async () => {
    const eve = await user('eve', 'Viewer');
    const g = (await app.post(G, { name: 'Eve\'s', users: [{ id: eve.id }, { id: ann.id }] })).body;
    expect((await app.del(`/api/admin/user-admin/${eve.id}`)).status).toBe(200);
    const after = (await app.get(`${G}/${g.id}`)).body;
    expect({ userCount: after.userCount, members: after.users.map((m: any) => m.user.id) }).toEqual({ userCount: 1, members: [ann.id] });
  });
});

describe('concurrent changes', () => {
  const N = 20;

  it(`${N} parallel PUTs of one group, each adding a different user: each runs on the state the previous one left (preData chain), ${N} events, members as the last one says`, async () => {
    const extra = [];
    for (let i = 0; i < N; i++) extra.push((await app.post('/api/admin/user-admin', { username: `par-${i}`, rootRole: 'Viewer' })).body.id as number);
    const g = (await app.post(G, { name: 'Parallel', users: [{ id: ann.id }] })).body;
    const annJoined = g.users[0].joinedAt;
    const since = await lastEventId();
    const replies = await Promise.all(extra.map((id, i) => app.put(`${G}/${g.id}`, { name: 'Parallel', description: `put ${i}`, users: [{ id: ann.id }, { id }] })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const events = (await eventsSince(since)).filter((e) => e.type === 'group-updated' && e.data.id === g.id);
    expect(events).toHaveLength(N);
    // Locked read-modify-write: each event's preData is exactly what the previous one wrote.
    expect(events[0].preData).toEqual({ id: g.id, name: 'Parallel', description: null, mappingsSSO: [], rootRole: null, users: [ann.id] });
    for (let i = 1; i < N; i++) expect(events[i].preData).toEqual(events[i - 1].data);
    expect(new Set(events.map((e) => e.data.description)).size).toBe(N);
    const final = (await app.get(`${G}/${g.id}`)).body;
    const last = events[N - 1].data;
    expect({ description: final.description, members: final.users.map((m: any) => m.user.id) }).toEqual({ description: last.description, members: last.users });
    expect(final.users[0]).toMatchObject({ joinedAt: annJoined, user: { id: ann.id } });
    expect(final.userCount).toBe(2);
  });

  it(`${N} parallel creates of one name (in different cases): one 201, the rest 409 NameExistsError with the same words, one event`, async () => {
    const since = await lastEventId();
    const replies = await Promise.all(Array.from({ length: N }, (_, i) => app.post(G, { name: i % 2 ? 'race' : 'RACE' })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.map(errorOf)).toEqual(refused.map(() => ({ status: 409, name: 'NameExistsError' })));
    expect(new Set(refused.map((r) => r.body.message))).toEqual(new Set(['A group with the name race already exists']));
    expect((await eventsSince(since)).filter((e) => e.type === 'group-created')).toHaveLength(1);
    expect(await sql(`select count(*)::int as n from groups where lower(name) = 'race'`)).toEqual([{ n: 1 }]);
  });

  it(`${N} parallel deletes of one group: one 200, the rest 404, one event`, async () => {
    const g = (await app.post(G, { name: 'Once', users: [{ id: ann.id }] })).body;
    const since = await lastEventId();
    const replies = await Promise.all(Array.from({ length: N }, () => app.del(`${G}/${g.id}`)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status !== 200).map(errorOf)).toEqual(Array.from({ length: N - 1 }, () => ({ status: 404, name: 'NotFoundError' })));
    expect((await eventsSince(since)).map((e) => e.type)).toEqual(['group-deleted']);
  });
});
