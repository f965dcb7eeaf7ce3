import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * `Project.memberCount` (the projects page's members column): distinct users holding a role in the project, directly
 * or through a group, equal to the `memberCount` of the REST state export's projects, and read for every project of
 * a list in one query.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const GqlProjectMembers = graphql(`
  query GqlProjectMembers { projects { id featureCount memberCount } }
`);

const user = async (username: string): Promise<number> => {
  const res = await app.post('/api/admin/user-admin', { username, rootRole: 'Viewer' });
  expect(res.status).toBe(201);
  return res.body.id;
};

describe('Project.memberCount', () => {
  it('counts users with a role directly or through a group once each, as the state export does, in one query for the list', async () => {
    for (const id of ['members-a', 'members-b']) expect((await app.post('/api/admin/projects', { id, name: id })).status).toBeLessThan(300);
    const [ann, bob, cat] = [await user('members-ann'), await user('members-bob'), await user('members-cat')];
    const em = app.orm.em.fork();
    const [{ id: team }] = await em.execute<Array<{ id: number }>>(`insert into groups (name) values ('members-team') returning id`);
    await em.execute('insert into group_user (group_id, user_id) values (?, ?), (?, ?)', [team, bob, team, cat]);
    // Ann and Bob directly (Bob twice: two roles), the team (Bob again and Cat) through the group: three people.
    const add = (project: string, roles: number[], users: number[], groups: number[]) => app.post(`/api/admin/projects/${project}/access`, { roles, users, groups });
    expect((await add('members-a', [4, 5], [ann, bob], [])).status).toBeLessThan(300);
    expect((await add('members-a', [5], [], [team])).status).toBeLessThan(300);
    expect((await add('members-b', [5], [], [team])).status).toBeLessThan(300);

    app.resetQueryCount();
    const res = await app.gql(GqlProjectMembers);
    expect(res.body.errors).toBeUndefined();
    expect(app.queries.filter((q) => /role_user/.test(q))).toHaveLength(1);
    const byId = new Map(res.body.data!.projects.map((p) => [p.id, p.memberCount]));
    expect([byId.get('members-a'), byId.get('members-b')]).toEqual([3, 2]);

    const exported = (await app.get('/api/admin/state/export?featureToggles=false&strategies=false&tags=false&environments=false')).body;
    expect(exported.projects.map((p: { id: string; memberCount: number }) => [p.id, p.memberCount]).sort())
      .toEqual(res.body.data!.projects.map((p) => [p.id, p.memberCount]).sort());
  });
});
