import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../../src/domain/access/permissions';
import { createServices } from '../../../src/domain/services';
import { startTestApp, type TestApp } from '../../support/harness';

/** PUT /api/admin/projects/:projectId/settings (spec endpoint 2, design D8). */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  expect((await app.post('/api/admin/projects', { id: 'web', name: 'Web' })).status).toBe(201);
});
afterAll(async () => { await app.close(); });

const settings = (body: unknown, project = 'web', options?: Parameters<TestApp['put']>[2]) =>
  app.put(`/api/admin/projects/${project}/settings`, body, options);
const project = async (id = 'web') => (await app.get(`/api/admin/projects/${id}`)).body;
const eventCount = async () => (await app.events()).length;
const noNaming = { pattern: null, example: null, description: null };

/** A refused request: 400 ValidationError whose details name `path`, with nothing changed and no event. */
async function refused(body: unknown, path: string, message?: string | RegExp) {
  const before = await project();
  const events = await eventCount();
  const res = await settings(body);
  expect(res.status).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  if (message !== undefined) {
    const detail = res.body.details.find((d: { path: string }) => d.path === path);
    if (typeof message === 'string') expect(detail.message).toBe(message);
    else expect(detail.message).toMatch(message);
  }
  expect(await project()).toEqual(before);
  expect(await eventCount()).toBe(events);
  return res.body;
}

describe('updating project settings', () => {
  it('answers 401 AuthenticationRequired without a token, and changes nothing', async () => {
    const res = await settings({ mode: 'private' }, 'web', { token: null });
    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect((await project()).mode).toBe('open');
  });

  it('sets the mode alone: 200 with no body, naming untouched, event project-updated with data and preData', async () => {
    const before = await project();
    const res = await settings({ mode: 'protected' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const after = await project();
    expect(after).toMatchObject({ mode: 'protected', featureNaming: noNaming, updatedAt: expect.any(String) });
    const [event] = await app.events('project-updated');
    expect(event).toMatchObject({ type: 'project-updated', project: 'web', environment: null, featureName: null, createdBy: 'admin' });
    expect(event.preData).toMatchObject({ id: 'web', mode: 'open', featureNaming: noNaming, updatedAt: null });
    expect(event.data).toMatchObject({ id: 'web', mode: 'protected', featureNaming: noNaming, name: before.name, updatedAt: after.updatedAt });
  });

  it('sets the feature naming pattern with its example and description', async () => {
    const naming = { pattern: '[a-z]+\\.[a-z-]+', example: 'web.new-header', description: '<team>.<feature>' };
    const res = await settings({ featureNaming: naming });
    expect(res.status).toBe(200);
    const after = await project();
    expect(after.featureNaming).toEqual(naming);
    expect(after.mode).toBe('protected'); // absent: untouched
    const [event] = await app.events('project-updated');
    expect(event.preData.featureNaming).toEqual(noNaming);
    expect(event.data.featureNaming).toEqual(naming);
  });

  it('leaves the naming pattern as it is when only the mode is sent (spec: fields not provided are ignored)', async () => {
    const naming = (await project()).featureNaming;
    expect((await settings({ mode: 'private' })).status).toBe(200);
    expect(await project()).toMatchObject({ mode: 'private', featureNaming: naming });
  });

  it('writes no event when nothing changes (same values, or an empty body)', async () => {
    const current = await project();
    const events = await eventCount();
    expect((await settings({ mode: current.mode, featureNaming: current.featureNaming })).status).toBe(200);
    expect((await settings({})).status).toBe(200);
    expect(await eventCount()).toBe(events);
    expect((await project()).updatedAt).toBe(current.updatedAt);
  });

  it('stores a falsy example and description as null when a pattern is set', async () => {
    expect((await settings({ featureNaming: { pattern: 'web-.+', example: '', description: '' } })).status).toBe(200);
    expect((await project()).featureNaming).toEqual({ pattern: 'web-.+', example: null, description: null });
  });

  it('clears all three with pattern null', async () => {
    expect((await settings({ featureNaming: { pattern: 'web-.+', example: 'web-x', description: 'web prefix' } })).status).toBe(200);
    expect((await settings({ featureNaming: { pattern: null } })).status).toBe(200);
    expect((await project()).featureNaming).toEqual(noNaming);
    const [event] = await app.events('project-updated');
    expect(event.preData.featureNaming).toEqual({ pattern: 'web-.+', example: 'web-x', description: 'web prefix' });
    expect(event.data.featureNaming).toEqual(noNaming);
  });

  it('sets both at once', async () => {
    expect((await settings({ mode: 'open', featureNaming: { pattern: 'a|b' } })).status).toBe(200);
    expect(await project()).toMatchObject({ mode: 'open', featureNaming: { pattern: 'a|b', example: null, description: null } });
  });

  it('answers 404 NotFoundError for an unknown project', async () => {
    const events = await eventCount();
    const res = await settings({ mode: 'open' }, 'nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'Project with id nope does not exist' });
    expect(await eventCount()).toBe(events);
  });

  it('answers 415 ContentTypeerror for a body that is not JSON', async () => {
    const res = await settings(undefined, 'web', { raw: 'mode=private', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.name).toBe('ContentTypeerror');
    expect((await project()).mode).toBe('open');
  });

  it('answers 400 ValidationError for malformed JSON', async () => {
    const res = await settings(undefined, 'web', { raw: '{"mode":' });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
  });
});

describe('refused settings (400 ValidationError, nothing changed)', () => {
  beforeAll(async () => {
    expect((await settings({ mode: 'open', featureNaming: { pattern: 'web-[0-9]+', example: 'web-1', description: 'numbered' } })).status).toBe(200);
  });

  it('refuses unknown properties, at the root and in featureNaming', async () => {
    await refused({ mode: 'open', linkTemplates: [] }, 'linkTemplates');
    await refused({ featureNaming: { pattern: 'x', flags: 'i' } }, 'featureNaming/flags');
  });

  it('refuses a mode outside open, protected, private, and a null mode', async () => {
    await refused({ mode: 'secret' }, 'mode', /must match one of the allowed values: "open", "protected", "private"/);
    await refused({ mode: null }, 'mode');
  });

  it('refuses featureNaming without its pattern key, or not an object', async () => {
    await refused({ featureNaming: { example: 'web-1' } }, 'featureNaming/pattern', /is required/);
    await refused({ featureNaming: 'web-.*' }, 'featureNaming');
    await refused({ featureNaming: null }, 'featureNaming');
  });

  it('refuses whitespace in the pattern', async () => {
    await refused({ featureNaming: { pattern: 'web [0-9]+' } }, 'featureNaming/pattern', /^Feature flag names cannot contain whitespace\./);
    await refused({ featureNaming: { pattern: 'web\\s[0-9]+' } }, 'featureNaming/pattern', /^Feature flag names cannot contain whitespace\./);
  });

  it('refuses an invalid JavaScript regex (Unleash: a 500)', async () => {
    await refused({ featureNaming: { pattern: 'web-[0-9' } }, 'featureNaming/pattern', /is not a valid JavaScript regular expression/);
  });

  it('refuses backreferences and lookarounds: not matchable in linear time', async () => {
    await refused({ featureNaming: { pattern: '(web)-\\1' } }, 'featureNaming/pattern', /cannot be matched in linear time/);
    await refused({ featureNaming: { pattern: '(?!x)[a-z]+' } }, 'featureNaming/pattern', /cannot be matched in linear time/);
  });

  it('refuses (a+)+b with a 40-character example quickly', async () => {
    const started = performance.now();
    await refused({ featureNaming: { pattern: '(a+)+b', example: 'a'.repeat(40) } }, 'featureNaming/pattern', /catastrophic backtracking/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses an example that does not match the pattern', async () => {
    const body = await refused({ featureNaming: { pattern: 'web-[0-9]+', example: 'web-one' } }, 'featureNaming/example',
      'You\'ve provided a feature flag naming example ("web-one") that doesn\'t match your feature flag naming pattern ("web-[0-9]+"). Please provide an example that matches your chosen pattern.');
    expect(body.message).toContain('doesn\'t match your feature flag naming pattern');
  });

  it('refuses an example or a description without a pattern', async () => {
    const body = await refused({ featureNaming: { pattern: null, example: 'web-1', description: 'numbered' } }, 'featureNaming/example', /but no feature flag naming pattern/);
    expect(body.details.map((d: { path: string }) => d.path)).toEqual(['featureNaming/example', 'featureNaming/description']);
  });

  it('refuses a pattern longer than 500 characters', async () => {
    await refused({ featureNaming: { pattern: 'a'.repeat(501) } }, 'featureNaming/pattern', /at most 500 characters/);
  });

  it('refuses the whole body when one part is bad: a valid mode is not applied with a bad pattern', async () => {
    await refused({ mode: 'private', featureNaming: { pattern: 'web [0-9]+' } }, 'featureNaming/pattern');
  });
});

describe('permission UPDATE_PROJECT', () => {
  const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 100 + rootRoleId, isAdmin: false, rootRoleId });
  const as = (p: Principal) => createServices(app.orm.em.fork(), p);

  it('a Viewer gets NoAccessError naming UPDATE_PROJECT, and nothing changes', async () => {
    const before = await project();
    const events = await eventCount();
    const error = await as(user(ROLE_VIEWER)).projects.updateSettings('web', { mode: 'private' }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_PROJECT' });
    expect((error as Error).message).toContain('"UPDATE_PROJECT"');
    expect(await project()).toEqual(before);
    expect(await eventCount()).toBe(events);
  });

  it('an Editor may change the default project (its project permissions apply there) but not another one', async () => {
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.projects.updateSettings('default', { featureNaming: { pattern: 'ed-.*' } }))
      .resolves.toMatchObject({ id: 'default', featureNaming: { pattern: 'ed-.*', example: null, description: null } });
    const [event] = await app.events('project-updated');
    expect(event).toMatchObject({ project: 'default', createdBy: `role-${ROLE_EDITOR}@example.com`, createdByUserId: 100 + ROLE_EDITOR });
    await expect(editor.projects.updateSettings('web', { mode: 'private' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_PROJECT' });
  });
});

describe('the stored pattern applies to new features (through the feature API)', () => {
  beforeAll(async () => {
    expect((await app.post('/api/admin/projects', { id: 'named', name: 'Named' })).status).toBe(201);
    expect((await settings({ featureNaming: { pattern: 'a|b', example: 'a', description: 'a or b' } }, 'named')).status).toBe(200);
  });

  it('refuses a name that does not match with 400 PatternError, anchoring the pattern as a group (D8)', async () => {
    // Unleash's ^a|b$ would accept "abc"; ^(?:a|b)$ does not.
    const res = await app.post('/api/admin/projects/named/features', { name: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      name: 'PatternError',
      message: 'The feature flag name "abc" does not match the project\'s naming pattern: "a|b". Here\'s an example of a name that does match the pattern: "a". The pattern\'s description is: "a or b".',
      details: [{ message: 'The flag name does not match the pattern.' }],
    });
    expect((await app.get('/api/admin/projects/named')).body.featureCount).toBe(0);
  });

  it('accepts a matching name, and any name once the pattern is cleared', async () => {
    expect((await app.post('/api/admin/projects/named/features', { name: 'b' })).status).toBe(201);
    expect((await settings({ featureNaming: { pattern: null } }, 'named')).status).toBe(200);
    expect((await app.post('/api/admin/projects/named/features', { name: 'abc' })).status).toBe(201);
  });
});
