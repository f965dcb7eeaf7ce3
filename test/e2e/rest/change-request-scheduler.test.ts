import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChangeRequestScheduler } from '../../../src/domain/change-requests/change-request-scheduler';
import { createLogger } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';
import { itWhen, NEEDS_POSTGRES } from '../../support/skip';

/**
 * Issue 12, part 7: Scheduled change requests are applied at their time by a scheduler; one that cannot be applied
 * records `failed` with the reason and one failure event; several instances looking at the same due request apply it
 * once.
 */
const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
let app: TestApp;
/** A second instance on the same database (PostgreSQL: its own connections; embedded: the same process). */
let other: TestApp | undefined;
const P = '/api/admin/projects/crsch';
const F = `${P}/features`;
const CR = `${P}/environments/production/change-requests`;
const prod = (feature: string) => `${F}/${feature}/environments/production`;

let n = 0;
/** A new feature with one strategy, and an Approved request (proposed by the admin token, approved by `rev`). */
async function approvedRequest(change: (feature: string, strategy: string) => unknown): Promise<{ id: number; feature: string; strategy: string }> {
  const feature = `crsch-${++n}`;
  await app.post(F, { name: feature });
  const strategy = (await app.post(`${prod(feature)}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: feature } })).body.id;
  const draft = await app.post(CR, change(feature, strategy));
  expect(draft.status).toBe(200);
  await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'In review' });
  expect((await app.put(`${P}/change-requests/${draft.body.id}/state`, { state: 'Approved' }, { token: reviewer })).body.state).toBe('Approved');
  return { id: draft.body.id, feature, strategy };
}
const enable = (feature: string) => ({ action: 'updateEnabled', feature, payload: { enabled: true } });
const read = async (id: number) => (await app.get(`${P}/change-requests/${id}`)).body;
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
let reviewer: string;

beforeAll(async () => {
  app = await startTestApp({ scheduler: { pollMs: 100 } });
  if (onPostgres) other = await startTestApp({ reset: false, scheduler: { pollMs: 100 } });
  await app.post('/api/admin/projects', { id: 'crsch', name: 'Scheduler' });
  await app.post(`${P}/environments`, { environment: 'production' });
  await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
  // A second admin token reviews: the first one proposes, and nobody approves their own request.
  reviewer = (await app.post('/api/admin/api-tokens', { tokenName: 'crsch-reviewer', type: 'admin' })).body.secret;
});
afterAll(async () => {
  await other?.close();
  await app.close();
});

describe('the scheduler', () => {
  it('applies a Scheduled request at its time, in the name of who scheduled it, with the success event', async () => {
    const { id, feature } = await approvedRequest(enable);
    const at = new Date(Date.now() + 1_500).toISOString();
    const scheduled = await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at }, { token: reviewer });
    expect(scheduled.body.schedule).toEqual({ scheduledAt: at, status: 'pending', failureReason: null });
    await new Promise((r) => setTimeout(r, 400));
    expect((await read(id)).state).toBe('Scheduled');
    const done = await until(() => read(id), (r) => r.state === 'Applied');
    expect(done.state).toBe('Applied');
    const [applied] = (await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id);
    expect(Date.parse(applied.createdAt)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(applied.createdBy).toBe('crsch-reviewer');
    expect((await app.events('change-request-scheduled-application-success')).filter((e) => e.data.changeRequestId === id).map((e) => e.data))
      .toEqual([{ changeRequestId: id, scheduledDate: at }]);
    expect((await app.get(`${F}/${feature}`)).body.environments.find((e: any) => e.name === 'production').enabled).toBe(true);
  });

  it('a request that cannot be applied at its time is marked failed with the reason and one failure event; nothing is written', async () => {
    const { id, feature, strategy } = await approvedRequest((f, s) => ({ action: 'updateStrategy', feature: f, payload: { id: s, name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: f } } }));
    const at = new Date(Date.now() + 800).toISOString();
    await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at }, { token: reviewer });
    // Meanwhile the strategy is changed directly (an admin skips change requests): the request now conflicts.
    await app.put(`${prod(feature)}/strategies/${strategy}`, { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'default', groupId: feature } });
    const failed = await until(() => read(id), (r) => r.schedule?.status === 'failed');
    expect(failed.state).toBe('Scheduled');
    expect(failed.schedule).toEqual({ scheduledAt: at, status: 'failed', failureReason: expect.stringContaining(`The strategy ${strategy} was changed`) });
    await new Promise((r) => setTimeout(r, 300)); // later rounds (and the other instance) do not try again
    const failures = (await app.events('change-request-scheduled-application-failure')).filter((e) => e.data.changeRequestId === id);
    expect(failures.map((e) => [e.createdBy, e.data.failureReason])).toEqual([['crsch-reviewer', failed.schedule.failureReason]]);
    expect((await app.get(`${prod(feature)}/strategies/${strategy}`)).body.parameters.rollout).toBe('30');
    expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id)).toEqual([]);
    // Scheduling it again makes it pending; cancelling withdraws it.
    const again = await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }, { token: reviewer });
    expect(again.body.schedule).toMatchObject({ status: 'pending', failureReason: null });
    expect((await app.put(`${P}/change-requests/${id}/state`, { state: 'Cancelled' })).body.state).toBe('Cancelled');
  });

  it('several instances finding the same due requests at the same moment apply each once', async () => {
    const requests: Array<{ id: number; feature: string; strategy: string }> = [];
    for (let i = 0; i < 5; i++) requests.push(await approvedRequest(enable));
    for (const r of requests) await app.put(`${P}/change-requests/${r.id}/state`, { state: 'Scheduled', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }, { token: reviewer });
    // Due at once for everybody: the running schedulers of both instances and two more started here.
    const extra = [app, other ?? app].map((instance) => new ChangeRequestScheduler(instance.orm, { pollMs: 60_000 }, createLogger('silent')));
    await app.orm.em.fork().execute(`update change_requests set scheduled_at = now() - interval '1 second' where id in (?)`, [requests.map((r) => r.id)]);
    await Promise.all(extra.map((s) => s.runDue()));
    await until(async () => Promise.all(requests.map((r) => read(r.id))), (all) => all.every((r) => r.state === 'Applied'));
    for (const r of requests) {
      expect((await read(r.id)).state).toBe('Applied');
      expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === r.id)).toHaveLength(1);
      expect((await app.events('change-request-scheduled-application-success')).filter((e) => e.data.changeRequestId === r.id)).toHaveLength(1);
      expect((await app.events('feature-environment-enabled')).filter((e) => e.featureName === r.feature)).toHaveLength(1);
    }
    await Promise.all(extra.map((s) => s.stop()));
  });
});

/** A Viewer user holding `role` in project crsch, with a personal access token. */
async function userWith(username: string, role: number): Promise<{ id: number; token: string }> {
  const id = Number((await app.post('/api/admin/user-admin', { username, rootRole: 'Viewer', password: 'Scheduler-Pass-42' })).body.id);
  expect((await app.post(`${P}/access`, { roles: [role], users: [id] })).status).toBe(200);
  const login = await app.post('/auth/simple/login', { username, password: 'Scheduler-Pass-42' }, { token: null });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const pat = await app.post('/api/admin/user/tokens', { description: 'scheduler test', expiresAt: '2100-01-01T00:00:00.000Z' }, { token: null, headers: { cookie } });
  expect(pat.status).toBe(201);
  return { id, token: pat.body.secret };
}

describe("the scheduler's current rights (issue 27, defect 1)", () => {
  let applier = 0;
  beforeAll(async () => {
    const role = await app.post('/api/admin/roles', { name: 'crsch-applier', type: 'custom', permissions: [{ name: 'APPLY_CHANGE_REQUEST', environment: 'production' }] });
    expect(role.status).toBe(200);
    applier = Number(role.body.roles.id);
  });

  /** Schedules the request `ms` ahead as `token`, lets `meanwhile` happen, and waits until it is applied or failed. */
  async function scheduleAs(token: string, id: number, meanwhile: () => Promise<void>, ms = 1_500) {
    const at = new Date(Date.now() + ms).toISOString();
    const scheduled = await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: at }, { token });
    expect([scheduled.status, scheduled.body.schedule?.status]).toEqual([200, 'pending']);
    await meanwhile();
    return until(() => read(id), (r) => r.state === 'Applied' || r.schedule?.status === 'failed');
  }

  const expectFailed = async (id: number, feature: string, outcome: any, reason: RegExp) => {
    expect(outcome.state).toBe('Scheduled');
    expect(outcome.schedule).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(reason) });
    const failures = (await app.events('change-request-scheduled-application-failure')).filter((e) => e.data.changeRequestId === id);
    expect(failures.map((e) => e.data.failureReason)).toEqual([outcome.schedule.failureReason]);
    expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id)).toEqual([]);
    expect((await app.get(`${F}/${feature}`)).body.environments.find((e: any) => e.name === 'production').enabled).toBe(false);
  };

  it('a user who still holds APPLY_CHANGE_REQUEST when it comes due has it applied in their name', async () => {
    const keeper = await userWith('crsch-keeper', applier);
    const { id } = await approvedRequest(enable);
    const outcome = await scheduleAs(keeper.token, id, async () => {});
    expect(outcome.state).toBe('Applied');
    const [applied] = (await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id);
    expect([applied.createdBy, applied.createdByUserId]).toEqual(['crsch-keeper', keeper.id]);
  });

  it('a user whose project role was taken away after scheduling: failed, with a reason that says so, nothing applied', async () => {
    const loser = await userWith('crsch-loser', applier);
    const { id, feature } = await approvedRequest(enable);
    const outcome = await scheduleAs(loser.token, id, async () => {
      expect((await app.del(`${P}/users/${loser.id}/roles`)).status).toBe(200);
    });
    await expectFailed(id, feature, outcome, /crsch-loser, who scheduled it, no longer holds the "APPLY_CHANGE_REQUEST" permission in the "production" environment/);
  });

  it('a user deleted after scheduling: failed, nothing applied', async () => {
    const gone = await userWith('crsch-gone', applier);
    const { id, feature } = await approvedRequest(enable);
    const outcome = await scheduleAs(gone.token, id, async () => {
      expect((await app.del(`/api/admin/user-admin/${gone.id}`)).status).toBe(200);
    });
    await expectFailed(id, feature, outcome, /the user who scheduled it \(crsch-gone\) no longer exists/);
  });

  it('an admin API token deleted after scheduling: failed, nothing applied', async () => {
    const created = (await app.post('/api/admin/api-tokens', { tokenName: 'crsch-short-lived', type: 'admin' })).body;
    const { id, feature } = await approvedRequest(enable);
    const outcome = await scheduleAs(created.secret, id, async () => {
      expect((await app.del(`/api/admin/api-tokens/${encodeURIComponent(created.secret)}`)).status).toBe(200);
    });
    await expectFailed(id, feature, outcome, /the API token that scheduled it \(crsch-short-lived\) was deleted or has expired/);
  });
});

describe('requests another instance is applying', () => {
  itWhen(onPostgres, NEEDS_POSTGRES)('are left to the next poll: a round over a full batch of them ends at once instead of reading them again', async () => {
    const requests: number[] = [];
    for (let i = 0; i < 20; i++) requests.push((await approvedRequest(enable)).id);
    const at = Date.now() + 4_000;
    for (const id of requests) await app.put(`${P}/change-requests/${id}/state`, { state: 'Scheduled', scheduledAt: new Date(at).toISOString() }, { token: reviewer });
    // "Another instance" holds all twenty (as while applying them) from before they come due until after.
    const { Client } = await import('pg');
    const holder = new Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query('begin');
    let timer: NodeJS.Timeout | undefined;
    try {
      const locked = await holder.query('select id from change_requests where id = any($1::int[]) and state = $2 for update', [requests, 'Scheduled']);
      expect(locked.rowCount).toBe(20);
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()) + 300));
      const scheduler = new ChangeRequestScheduler(app.orm, { pollMs: 60_000 }, createLogger('silent'));
      const outcome = await Promise.race([scheduler.runDue(), new Promise((r) => { timer = setTimeout(() => r('still reading'), 3_000); })]);
      expect(outcome).toBe(0);
      await scheduler.stop();
    } finally {
      clearTimeout(timer);
      await holder.query('commit');
      await holder.end();
    }
    // Released, they are applied by the running schedulers, once each.
    await until(async () => Promise.all(requests.map((id) => read(id))), (all) => all.every((r) => r.state === 'Applied'));
    for (const id of requests) expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id)).toHaveLength(1);
  });
});
