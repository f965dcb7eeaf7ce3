import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12, part 5: the moves of a change request (`PUT …/change-requests/:id/state`). Every legal move is walked and
 * every other one tried from each state; who may make each move; approvals by users other than the author, counted
 * to `minApprovals`; comments with a move; the events of each step.
 */
let app: TestApp;
type As = { token: null; headers: { cookie: string } };
/** ann proposes; bob and cat review (APPROVE_CHANGE_REQUEST); dan applies (APPLY_CHANGE_REQUEST); eve only reads. */
const as: Record<'ann' | 'bob' | 'cat' | 'dan' | 'eve', As> = {} as never;
const P = '/api/admin/projects/crs';
const CR = `${P}/environments/production/change-requests`;
const STATES = ['Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled'] as const;
type State = (typeof STATES)[number];
const future = () => new Date(Date.now() + 3_600_000).toISOString();

const login = async (username: string): Promise<As> => {
  const res = await app.post('/auth/simple/login', { username, password: 'Change-States-42' }, { token: null });
  return { token: null, headers: { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] } };
};
const move = (id: number, state: State, who: As, extra: Record<string, unknown> = {}) =>
  app.put(`${P}/change-requests/${id}/state`, { state, ...(state === 'Scheduled' && extra.scheduledAt === undefined ? { scheduledAt: future() } : {}), ...extra }, who);
/** Who would be allowed to make a move (so an illegal move is refused for its state, not for its caller). */
const mover = (state: State): As => (state === 'Approved' || state === 'Rejected' ? as.bob : state === 'Applied' || state === 'Scheduled' ? as.dan : as.ann);
const propose = async (change: unknown = { action: 'updateEnabled', feature: 'crs-a', payload: { enabled: true } }): Promise<number> => {
  const res = await app.post(CR, change, as.ann);
  expect(res.status).toBe(200);
  return res.body.id;
};
const state = async (id: number): Promise<string> => (await app.get(`${P}/change-requests/${id}`)).body.state;

/** Every move not in `legal` is refused from the request's current state with 409 ConflictError, and changes nothing. */
async function refusesAllBut(id: number, legal: readonly State[]): Promise<void> {
  const before = (await app.get(`${P}/change-requests/${id}`)).body;
  const eventsBefore = (await app.events()).length;
  for (const target of STATES.filter((s) => !legal.includes(s))) {
    const res = await move(id, target, mover(target));
    expect([before.state, target, res.status, res.body.name]).toEqual([before.state, target, 409, 'ConflictError']);
    expect(res.body.message).toContain(`is ${before.state}: it cannot become ${target}`);
  }
  expect((await app.get(`${P}/change-requests/${id}`)).body).toEqual(before);
  expect((await app.events()).length).toBe(eventsBefore);
}

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/projects', { id: 'crs', name: 'States' });
  await app.post(`${P}/environments`, { environment: 'production' });
  for (const name of ['crs-a', 'crs-b']) await app.post(`${P}/features`, { name });
  await app.post(`${P}/features/crs-a/environments/production/strategies`, { name: 'default' });
  await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 2 });
  const reviewer = (await app.post('/api/admin/roles', { name: 'CR reviewer', type: 'custom', permissions: [{ name: 'APPROVE_CHANGE_REQUEST', environment: 'production' }] })).body.roles.id;
  const applier = (await app.post('/api/admin/roles', { name: 'CR applier', type: 'custom', permissions: [{ name: 'APPLY_CHANGE_REQUEST', environment: 'production' }] })).body.roles.id;
  const ids: Record<string, number> = {};
  for (const name of ['ann', 'bob', 'cat', 'dan', 'eve'] as const) {
    ids[name] = (await app.post('/api/admin/user-admin', { username: `crs-${name}`, password: 'Change-States-42', rootRole: name === 'eve' ? 'Viewer' : 'Editor' })).body.id;
    as[name] = await login(`crs-${name}`);
  }
  expect((await app.post(`${P}/access`, { roles: [4], users: ['ann', 'bob', 'cat', 'dan'].map((n) => ({ id: ids[n] })) })).status).toBeLessThan(300);
  expect((await app.post(`${P}/access`, { roles: [reviewer], users: [{ id: ids.bob }, { id: ids.cat }] })).status).toBeLessThan(300);
  expect((await app.post(`${P}/access`, { roles: [applier], users: [{ id: ids.dan }] })).status).toBeLessThan(300);
});
afterAll(async () => { await app.close(); });

describe('the way to Applied', () => {
  let id: number;

  it('Draft: only In review (by the author) and Cancelled are moves; the others are refused', async () => {
    id = await propose();
    await refusesAllBut(id, ['In review', 'Cancelled']);
    const byBob = await move(id, 'In review', as.bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'ForbiddenError']);
  });

  it('Draft → In review by the author, with a comment; the approvals needed are the environment\'s at that time', async () => {
    await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 2 });
    const res = await move(id, 'In review', as.ann, { comment: 'Please look' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, state: 'In review', minApprovals: 2, approvals: [], comments: [{ text: 'Please look', createdBy: { username: 'crs-ann' } }] });
    expect((await app.events('change-request-sent-to-review')).map((e) => [e.createdBy, e.project, e.environment, e.data.changeRequestId])).toEqual([['crs-ann', 'crs', 'production', id]]);
    await refusesAllBut(id, ['Approved', 'Rejected', 'Cancelled']);
  });

  it('who may approve: not the author (403 ForbiddenError), not without APPROVE_CHANGE_REQUEST (403 NoAccessError)', async () => {
    const own = await move(id, 'Approved', as.ann);
    expect([own.status, own.body.name]).toEqual([403, 'ForbiddenError']);
    expect(own.body.message).toContain('your own change request');
    for (const who of [as.dan, as.eve]) {
      const res = await move(id, 'Approved', who);
      expect([res.status, res.body.name]).toEqual([403, 'NoAccessError']);
      expect(res.body.message).toContain('APPROVE_CHANGE_REQUEST');
    }
    expect((await app.get(`${P}/change-requests/${id}`)).body.approvals).toEqual([]);
  });

  it('one approval of two keeps it In review; the same reviewer twice is a 409; the second reviewer makes it Approved', async () => {
    const first = await move(id, 'Approved', as.bob);
    expect(first.status).toBe(200);
    expect(first.body.state).toBe('In review');
    expect(first.body.approvals).toEqual([{ createdBy: { id: expect.any(Number), username: 'crs-bob', imageUrl: null }, createdAt: expect.any(String) }]);
    const again = await move(id, 'Approved', as.bob);
    expect([again.status, again.body.name]).toEqual([409, 'ConflictError']);
    const second = await move(id, 'Approved', as.cat, { comment: 'Fine by me' });
    expect(second.body.state).toBe('Approved');
    expect(second.body.approvals.map((a: any) => a.createdBy.username).sort()).toEqual(['crs-bob', 'crs-cat']);
    expect(second.body.comments.map((c: any) => c.text)).toEqual(['Please look', 'Fine by me']);
    expect((await app.events('change-request-approval-added')).map((e) => e.createdBy).sort()).toEqual(['crs-bob', 'crs-cat']);
    expect((await app.events('change-request-approved')).map((e) => [e.createdBy, e.data.changeRequestId])).toEqual([['crs-cat', id]]);
  });

  it('Approved: Applied, Scheduled, Rejected and Cancelled are moves; nothing else', async () => {
    await refusesAllBut(id, ['Applied', 'Scheduled', 'Rejected', 'Cancelled']);
  });

  it('applying needs APPLY_CHANGE_REQUEST; applied, the change is made with its own event, in the applier\'s name', async () => {
    const byBob = await move(id, 'Applied', as.bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'NoAccessError']);
    expect(byBob.body.message).toContain('APPLY_CHANGE_REQUEST');
    const res = await move(id, 'Applied', as.dan);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('Applied');
    const feature = (await app.get(`${P}/features/crs-a`)).body;
    expect(feature.environments.find((e: any) => e.name === 'production').enabled).toBe(true);
    expect((await app.events('feature-environment-enabled')).map((e) => [e.createdBy, e.featureName, e.environment])).toEqual([['crs-dan', 'crs-a', 'production']]);
    expect((await app.events('change-request-applied')).map((e) => [e.createdBy, e.data.changeRequestId])).toEqual([['crs-dan', id]]);
  });

  it('Applied is final', async () => {
    await refusesAllBut(id, []);
  });
});

describe('the other ways', () => {
  const toReview = async (): Promise<number> => {
    const id = await propose({ action: 'updateEnabled', feature: 'crs-b', payload: { enabled: false } });
    expect((await move(id, 'In review', as.ann)).status).toBe(200);
    return id;
  };
  const toApproved = async (): Promise<number> => {
    const id = await toReview();
    await move(id, 'Approved', as.bob);
    expect((await move(id, 'Approved', as.cat)).body.state).toBe('Approved');
    return id;
  };

  it('In review → Rejected by a reviewer (not the author); Rejected is final', async () => {
    const id = await toReview();
    const own = await move(id, 'Rejected', as.ann);
    expect([own.status, own.body.name]).toEqual([403, 'ForbiddenError']);
    const res = await move(id, 'Rejected', as.bob, { comment: 'Not now' });
    expect(res.body).toMatchObject({ state: 'Rejected', rejections: [{ createdBy: { username: 'crs-bob' } }], approvals: [], comments: [{ text: 'Not now' }] });
    expect((await app.events('change-request-rejected')).map((e) => [e.createdBy, e.data.changeRequestId])).toEqual([['crs-bob', id]]);
    await refusesAllBut(id, []);
  });

  it('Approved → Rejected: a reviewer who approved may still reject before it is applied', async () => {
    const id = await toApproved();
    const res = await move(id, 'Rejected', as.bob);
    expect(res.body.state).toBe('Rejected');
    expect(res.body.approvals.map((a: any) => a.createdBy.username)).toEqual(['crs-cat']);
    expect(res.body.rejections.map((a: any) => a.createdBy.username)).toEqual(['crs-bob']);
  });

  it('Cancelled from Draft, In review, Approved and Scheduled, by the author or someone who may apply; by others 403; Cancelled is final', async () => {
    const draft = await propose({ action: 'updateEnabled', feature: 'crs-b', payload: { enabled: true } });
    const byEve = await move(draft, 'Cancelled', as.eve);
    expect([byEve.status, byEve.body.name]).toEqual([403, 'NoAccessError']);
    const byBob = await move(draft, 'Cancelled', as.bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'NoAccessError']);
    expect((await move(draft, 'Cancelled', as.ann)).body.state).toBe('Cancelled');
    await refusesAllBut(draft, []);
    const inReview = await toReview();
    expect((await move(inReview, 'Cancelled', as.dan)).body.state).toBe('Cancelled');
    const approved = await toApproved();
    expect((await move(approved, 'Cancelled', as.ann)).body.state).toBe('Cancelled');
    const scheduled = await toApproved();
    expect((await move(scheduled, 'Scheduled', as.dan)).body.state).toBe('Scheduled');
    const cancelled = await move(scheduled, 'Cancelled', as.dan);
    expect(cancelled.body.state).toBe('Cancelled');
    expect(cancelled.body.schedule).toBeUndefined();
    expect((await app.events('change-request-cancelled')).map((e) => e.data.changeRequestId)).toEqual([scheduled, approved, inReview, draft]);
  });

  it('Approved → Scheduled (APPLY_CHANGE_REQUEST) with a future scheduledAt; rescheduled; then applied at once', async () => {
    const id = await toApproved();
    const byBob = await move(id, 'Scheduled', as.bob);
    expect([byBob.status, byBob.body.name]).toEqual([403, 'NoAccessError']);
    const at = new Date(Date.now() + 7_200_000).toISOString();
    const res = await move(id, 'Scheduled', as.dan, { scheduledAt: at });
    expect(res.body).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: at, status: 'pending', failureReason: null } });
    expect((await app.events('change-request-scheduled')).filter((e) => e.data.changeRequestId === id).map((e) => [e.createdBy, e.data])).toEqual([['crs-dan', { changeRequestId: id, scheduledDate: at }]]);
    await refusesAllBut(id, ['Scheduled', 'Applied', 'Cancelled']);
    const later = new Date(Date.now() + 9_000_000).toISOString();
    expect((await move(id, 'Scheduled', as.dan, { scheduledAt: later })).body.schedule.scheduledAt).toBe(later);
    const applied = await move(id, 'Applied', as.dan);
    expect(applied.body.state).toBe('Applied');
    expect(applied.body.schedule).toBeUndefined();
  });

  it('two reviewers approving at the same moment: both approvals count and the request is Approved once', async () => {
    const id = await toReview();
    const before = (await app.events('change-request-approved')).length;
    const answers = await Promise.all([move(id, 'Approved', as.bob), move(id, 'Approved', as.cat)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const after = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(after.state).toBe('Approved');
    expect(after.approvals).toHaveLength(2);
    expect((await app.events('change-request-approved')).length).toBe(before + 1);
    // And two appliers at once: one applies, the other finds it Applied.
    const applies = await Promise.all([move(id, 'Applied', as.dan), app.put(`${P}/change-requests/${id}/state`, { state: 'Applied' })]);
    expect(applies.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await app.events('change-request-applied')).filter((e) => e.data.changeRequestId === id)).toHaveLength(1);
  });
});

describe('what a move takes', () => {
  let id: number;
  beforeAll(async () => { id = await propose({ action: 'updateEnabled', feature: 'crs-b', payload: { enabled: true } }); });

  it.each([
    ['an unknown state', { state: 'Done' }, 'state'],
    ['no state', {}, 'state'],
    ['a state in the wrong case', { state: 'approved' }, 'state'],
    ['an unknown property', { state: 'In review', reason: 'x' }, 'reason'],
    ['an empty comment', { state: 'In review', comment: '  ' }, 'comment'],
    ['Scheduled without scheduledAt', { state: 'Scheduled' }, 'scheduledAt'],
    ['Scheduled in the past', { state: 'Scheduled', scheduledAt: '2020-01-01T00:00:00Z' }, 'scheduledAt'],
    ['Scheduled at a time that is not a date-time', { state: 'Scheduled', scheduledAt: 'tomorrow' }, 'scheduledAt'],
    ['scheduledAt with another state', { state: 'In review', scheduledAt: '2099-01-01T00:00:00Z' }, 'scheduledAt'],
  ])('%s: 400 ValidationError naming it, nothing changed', async (_label, body, path) => {
    const res = await app.put(`${P}/change-requests/${id}/state`, body, as.ann);
    expect([res.status, res.body.name]).toEqual([400, 'ValidationError']);
    expect(res.body.details[0].path).toBe(path);
    expect(await state(id)).toBe('Draft');
  });

  it('404 for an unknown request, one of another project or a malformed id', async () => {
    for (const path of [`${P}/change-requests/99999/state`, `/api/admin/projects/default/change-requests/${id}/state`, `${P}/change-requests/x/state`]) {
      const res = await app.put(path, { state: 'In review' }, as.ann);
      expect([path, res.status, res.body.name]).toEqual([path, 404, 'NotFoundError']);
    }
  });

  it('editing or discarding a change while In review withdraws the approvals given so far (they approved something else)', async () => {
    expect((await move(id, 'In review', as.ann)).status).toBe(200);
    await move(id, 'Approved', as.bob);
    const request = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(request.approvals).toHaveLength(1);
    const changeId = request.features[0].changes[0].id;
    const edited = await app.put(`${P}/change-requests/${id}/changes/${changeId}`, { action: 'updateEnabled', feature: 'crs-b', payload: { enabled: false } }, as.ann);
    expect(edited.status).toBe(200);
    expect(edited.body.approvals).toEqual([]);
    expect(edited.body.state).toBe('In review');
  });

  it('after review, the changes cannot be edited (409 ConflictError)', async () => {
    await move(id, 'Approved', as.bob);
    await move(id, 'Approved', as.cat);
    const request = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(request.state).toBe('Approved');
    const changeId = request.features[0].changes[0].id;
    const edit = await app.put(`${P}/change-requests/${id}/changes/${changeId}`, { action: 'updateEnabled', feature: 'crs-b', payload: { enabled: true } }, as.ann);
    expect([edit.status, edit.body.name]).toEqual([409, 'ConflictError']);
    const title = await app.put(`${P}/change-requests/${id}/title`, { title: 'Late' }, as.ann);
    expect([title.status, title.body.name]).toEqual([409, 'ConflictError']);
  });
});
