import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/db/orm';
import { createScratchDatabase } from '../support/scratch-database';
import { describeWhen, NEEDS_POSTGRES } from '../support/skip';

/**
 * Migration 0020 (issue 27, defect 2) on a database an earlier version wrote: usernames that clash with another user's
 * e-mail, change requests and reviews recorded by name, an author with two Drafts under two names. Needs a database
 * of its own at 0019, so it runs against a PostgreSQL server (the suite's run against one) and is skipped on the
 * embedded run.
 */
const admin = process.env.FLAGDECK_TEST_ADMIN_URL;
const name = `flagdeck_migration_${process.pid}`;
let orm: MikroORM | undefined;

describeWhen(Boolean(admin), NEEDS_POSTGRES)('migration 0020 on data of an earlier version', () => {
  let drop = async () => {};
  beforeAll(async () => {
    const scratch = await createScratchDatabase(admin!, name);
    drop = scratch.drop;
    orm = await MikroORM.init(ormConfig({ url: scratch.url, poolMax: 2 }));
    await orm.getMigrator().up({ to: '0019-overview-version' });
  });
  afterAll(async () => {
    await orm?.close(true);
    await drop();
  });

  it('fills the login namespace (an e-mail keeps a name a username clashed with) and the actors of change requests and reviews', async () => {
    const sql = <T = any>(q: string, params: unknown[] = []) => orm!.em.fork().execute<T[]>(q, params);
    const [{ id: role }] = await sql(`select id from roles where name = 'Viewer'`);
    const user = async (username: string | null, email: string | null) =>
      (await sql('insert into users (username, email, root_role_id) values (?, ?, ?) returning id', [username, email, role]))[0].id as number;
    const victim = await user(null, 'victim@example.com');
    const mallory = await user('VICTIM@example.com', 'mallory@example.com');
    const bob = await user('bob', 'bob@example.com');
    const [{ id: token }] = await sql(`insert into api_tokens (secret_hash, token_name, type) values ('h1', 'ci-token', 'admin') returning id`);
    await sql(`insert into api_tokens (secret_hash, token_name, type) values ('h2', 'twin', 'admin'), ('h3', 'twin', 'admin')`);
    await sql(`insert into projects (id, name) values ('p', 'P')`);
    await sql(`insert into environments (name, type) values ('e', 'test')`);
    await sql(`insert into project_environments (project_id, environment_name) values ('p', 'e')`);
    const request = async (createdBy: string, userId: number, state: string, scheduled = false) =>
      (await sql(`insert into change_requests (project, environment, state, min_approvals, created_by, created_by_user_id, scheduled_by, scheduled_by_user_id)
                  values ('p', 'e', ?, 1, ?, ?, ?, ?) returning id`, [state, createdBy, userId, scheduled ? createdBy : null, scheduled ? userId : null]))[0].id as number;
    // Bob's e-mail was his display name once, his username later: two Drafts that are now one author's.
    const olderDraft = await request('bob@example.com', bob, 'Draft');
    const newerDraft = await request('bob', bob, 'Draft');
    const byToken = await request('ci-token', -1337, 'Scheduled', true);
    const byTwin = await request('twin', -1337, 'Approved');
    const byGone = await request('deleted-token', -1337, 'In review');
    await sql(`insert into change_request_reviews (change_request_id, created_by, created_by_user_id, decision, created_at) values
                 (?, 'bob@example.com', ?, 'approved', now() - interval '1 hour'), (?, 'bob', ?, 'rejected', now()), (?, 'ci-token', -1337, 'approved', now())`,
    [byGone, bob, byGone, bob, byGone]);

    await orm!.getMigrator().up();

    expect(await sql('select name, user_id, property from user_login_names order by name')).toEqual([
      { name: 'bob', user_id: bob, property: 'username' },
      { name: 'bob@example.com', user_id: bob, property: 'email' },
      { name: 'mallory@example.com', user_id: mallory, property: 'email' },
      { name: 'victim@example.com', user_id: victim, property: 'email' },
    ]);
    const actors = new Map((await sql<{ id: number; created_by_actor: string; scheduled_by_actor: string | null }>(
      'select id, created_by_actor, scheduled_by_actor from change_requests')).map((r) => [r.id, r]));
    expect(actors.get(newerDraft)).toMatchObject({ created_by_actor: `user:${bob}`, scheduled_by_actor: null });
    expect(actors.get(olderDraft)?.created_by_actor).toBe(`name:bob@example.com#${olderDraft}`);
    expect(actors.get(byToken)).toMatchObject({ created_by_actor: `token:${token}`, scheduled_by_actor: `token:${token}` });
    expect(actors.get(byTwin)?.created_by_actor).toBe('name:twin');
    expect(actors.get(byGone)?.created_by_actor).toBe('name:deleted-token');
    // One review per reviewer: Bob's later review is kept.
    expect(await sql('select created_by_actor, decision from change_request_reviews order by created_by_actor')).toEqual([
      { created_by_actor: `token:${token}`, decision: 'approved' },
      { created_by_actor: `user:${bob}`, decision: 'rejected' },
    ]);
    // From now on the namespace holds: the clash an earlier version allowed cannot be made again.
    await expect(sql('insert into users (username, root_role_id) values (?, ?)', ['BOB@example.com', role])).rejects.toMatchObject({ code: '23505' });
  });
});
