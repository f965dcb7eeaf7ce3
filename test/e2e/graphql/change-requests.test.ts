import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from '../../gql';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * Issue 12, part 8: every step of a change request through GraphQL, answered by the same service as REST: the
 * request read through both doors is the same, and each mutation writes the same events.
 */
let app: TestApp;
let reviewer: string;
const P = '/api/admin/projects/crg';

const GqlCrParts = graphql(`
  fragment GqlCrParts on ChangeRequest {
    id title environment project minApprovals state createdAt
    createdBy { username imageUrl }
    features { name conflict defaultChange { action payload } changes { id action conflict payload createdAt createdBy { username imageUrl } } }
    segments { id name changes { id action payload } }
    approvals { username userId createdAt }
    rejections { username userId createdAt }
    comments { id text createdAt createdBy { username } }
    schedule { scheduledAt status failureReason }
  }
`);
const GqlCrAdd = graphql(`mutation GqlCrAdd($input: AddChangeRequestChangesInput!) { addChangeRequestChanges(input: $input) { ...GqlCrParts } }`);
const GqlCrState = graphql(`mutation GqlCrState($input: SetChangeRequestStateInput!) { setChangeRequestState(input: $input) { ...GqlCrParts } }`);
const GqlCrOne = graphql(`query GqlCrOne($project: String!, $id: Int!) { changeRequest(project: $project, id: $id) { ...GqlCrParts } }`);
const GqlCrList = graphql(`query GqlCrList($project: String!, $state: String) { changeRequests(project: $project, state: $state) { id state } }`);

async function data<R, V>(doc: TypedDocumentNode<R, V>, variables: V, token?: string): Promise<R> {
  const res = await app.gql(doc, variables, token === undefined ? undefined : { token });
  expect(res.body.errors).toBeUndefined();
  return res.body.data as R;
}
async function error<R, V>(doc: TypedDocumentNode<R, V>, variables: V, token?: string): Promise<Record<string, any>> {
  const res = await app.gql(doc, variables, token === undefined ? undefined : { token });
  expect(res.body.errors).toHaveLength(1);
  return res.body.errors![0].extensions;
}

beforeAll(async () => {
  app = await startTestApp();
  await app.post('/api/admin/projects', { id: 'crg', name: 'GraphQL' });
  await app.post(`${P}/environments`, { environment: 'production' });
  await app.post(`${P}/features`, { name: 'crg-a' });
  await app.put(`${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
  reviewer = (await app.post('/api/admin/api-tokens', { tokenName: 'crg-reviewer', type: 'admin' })).body.secret;
});
afterAll(async () => { await app.close(); });

describe('change requests through GraphQL', () => {
  let id: number;

  it('proposes a change: the Draft shows the background change, as REST does', async () => {
    const { addChangeRequestChanges: draft } = await data(GqlCrAdd, { input: { project: 'crg', environment: 'production', changes: { action: 'updateEnabled', feature: 'crg-a', payload: { enabled: true } } } });
    id = draft.id;
    expect(draft.state).toBe('Draft');
    expect(draft.schedule).toBeNull();
    expect(draft.features[0].defaultChange).toEqual({ action: 'addStrategy', payload: expect.objectContaining({ name: 'flexibleRollout' }) });
    expect(draft.features[0].changes[0].conflict).toBeNull();
    const rest = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(rest.features[0].defaultChange).toEqual(draft.features[0].defaultChange);
  });

  it('walks Draft → In review → Approved → Scheduled → Applied, one mutation per step, with the REST events', async () => {
    const review = await data(GqlCrState, { input: { project: 'crg', id, state: 'In review', comment: 'Ready' } });
    expect(review.setChangeRequestState.state).toBe('In review');
    expect(review.setChangeRequestState.comments.map((c) => c.text)).toEqual(['Ready']);
    const own = await error(GqlCrState, { input: { project: 'crg', id, state: 'Approved' } });
    expect([own.name, own.code]).toEqual(['ForbiddenError', 403]);
    const approved = await data(GqlCrState, { input: { project: 'crg', id, state: 'Approved' } }, reviewer);
    expect(approved.setChangeRequestState).toMatchObject({ state: 'Approved', approvals: [{ username: 'crg-reviewer' }] });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await data(GqlCrState, { input: { project: 'crg', id, state: 'Scheduled', scheduledAt: at } }, reviewer);
    expect(scheduled.setChangeRequestState.schedule).toEqual({ scheduledAt: at, status: 'pending', failureReason: null });
    const back = await error(GqlCrState, { input: { project: 'crg', id, state: 'In review' } });
    expect([back.name, back.code]).toEqual(['ConflictError', 409]);
    const bad = await error(GqlCrState, { input: { project: 'crg', id, state: 'Scheduled', scheduledAt: 'soon' } }, reviewer);
    expect([bad.name, bad.code]).toEqual(['ValidationError', 400]);
    const applied = await data(GqlCrState, { input: { project: 'crg', id, state: 'Applied' } }, reviewer);
    expect(applied.setChangeRequestState.state).toBe('Applied');
    expect((await app.events()).map((e) => e.type).filter((t) => t.startsWith('change-request') || t.startsWith('feature-'))).toEqual([
      'change-request-applied', 'feature-environment-enabled', 'feature-strategy-add', 'change-request-scheduled', 'change-request-approved',
      'change-request-approval-added', 'change-request-sent-to-review', 'change-request-created', 'change-request-configuration-updated', 'feature-created',
    ]);
  });

  it('reads the same request through both doors', async () => {
    const { changeRequest } = await data(GqlCrOne, { project: 'crg', id });
    const rest = (await app.get(`${P}/change-requests/${id}`)).body;
    expect(changeRequest).toMatchObject({
      id: rest.id, title: rest.title, state: rest.state, minApprovals: rest.minApprovals, createdAt: rest.createdAt,
      approvals: rest.approvals.map((a: any) => ({ username: a.createdBy.username, userId: a.createdBy.id, createdAt: a.createdAt })),
      comments: rest.comments.map((c: any) => ({ id: c.id, text: c.text, createdAt: c.createdAt, createdBy: { username: c.createdBy.username } })),
    });
    expect((await data(GqlCrList, { project: 'crg', state: 'Applied' })).changeRequests).toEqual([{ id, state: 'Applied' }]);
  });
});

describe('whose request it is (createdByMe)', () => {
  const GqlCrMine = graphql(`query GqlCrMine($project: String!) { changeRequests(project: $project) { id createdByMe createdBy { username } } }`);

  it('is decided by who the caller is, not by the name the request shows', async () => {
    const { addChangeRequestChanges: draft } = await data(GqlCrAdd, { input: { project: 'crg', environment: 'development', changes: { action: 'updateEnabled', feature: 'crg-a', payload: { enabled: true } } } });
    const author = draft.createdBy.username!;
    // Another credential going by the very same name is someone else.
    const twin = (await app.post('/api/admin/api-tokens', { tokenName: author, type: 'admin' })).body.secret as string;
    const mine = (token?: string) => data(GqlCrMine, { project: 'crg' }, token).then((r) => r.changeRequests.find((c) => c.id === draft.id));
    expect(await mine()).toEqual({ id: draft.id, createdByMe: true, createdBy: { username: author } });
    expect(await mine(twin)).toEqual({ id: draft.id, createdByMe: false, createdBy: { username: author } });
    expect((await mine(reviewer))?.createdByMe).toBe(false);
  });
});
