import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/domain/access/principal';
import { ROLE_EDITOR, ROLE_VIEWER } from '../../src/domain/access/permissions';
import { NoAccessError } from '../../src/domain/errors';
import { createServices, type Services } from '../../src/domain/services';
import { startTestApp, type TestApp } from '../support/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

const user = (rootRoleId: number): Principal => ({ kind: 'user', name: `role-${rootRoleId}@example.com`, userId: 100 + rootRoleId, isAdmin: false, rootRoleId });
const as = (p: Principal) => createServices(app.orm.em.fork(), p);

/** Every state-changing service method of this issue and the permission Unleash requires for it (reference §4). */
const MUTATIONS: Array<[string, string, (s: Services) => Promise<unknown>]> = [
  ['environments.create', 'ADMIN', (s) => s.environments.create({ name: 'qa', type: 'test' })],
  ['environments.update', 'ADMIN', (s) => s.environments.update('development', { sortOrder: 9 })],
  ['environments.remove', 'ADMIN', (s) => s.environments.remove('development')],
  ['environments.setEnabled', 'ADMIN', (s) => s.environments.setEnabled('development', false)],
  ['projects.create', 'CREATE_PROJECT', (s) => s.projects.create({ id: 'p2', name: 'P2' })],
  ['projects.update', 'UPDATE_PROJECT', (s) => s.projects.update('default', { name: 'Renamed' })],
  ['projects.remove', 'DELETE_PROJECT', (s) => s.projects.remove('default')],
  ['projects.addEnvironment', 'UPDATE_PROJECT', (s) => s.projects.addEnvironment('default', { environment: 'development' })],
  ['projects.removeEnvironment', 'UPDATE_PROJECT', (s) => s.projects.removeEnvironment('default', 'development')],
  ['contextFields.create', 'CREATE_CONTEXT_FIELD', (s) => s.contextFields.create({ name: 'region' })],
  ['contextFields.update', 'UPDATE_CONTEXT_FIELD', (s) => s.contextFields.update('userId', { description: 'x' })],
  ['contextFields.addLegalValue', 'UPDATE_CONTEXT_FIELD', (s) => s.contextFields.addLegalValue('userId', { value: 'v' })],
  ['contextFields.removeLegalValue', 'UPDATE_CONTEXT_FIELD', (s) => s.contextFields.removeLegalValue('userId', 'v')],
  ['contextFields.remove', 'DELETE_CONTEXT_FIELD', (s) => s.contextFields.remove('userId')],
  ['tags.createTagType', 'CREATE_TAG_TYPE', (s) => s.tags.createTagType({ name: 'team' })],
  ['tags.updateTagType', 'UPDATE_TAG_TYPE', (s) => s.tags.updateTagType('simple', { icon: 'S' })],
  ['tags.deleteTagType', 'DELETE_TAG_TYPE', (s) => s.tags.deleteTagType('simple')],
  ['tags.deleteTag', 'UPDATE_FEATURE', (s) => s.tags.deleteTag('simple', 'x')],
];

describe('permission checks', () => {
  it.each(MUTATIONS)('%s needs %s: a Viewer gets NoAccessError naming it, and nothing changes', async (_name, permission, call) => {
    const before = await app.events();
    const error = await call(as(user(ROLE_VIEWER))).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(NoAccessError);
    expect((error as NoAccessError).permission).toBe(permission);
    expect((error as NoAccessError).message).toContain(`"${permission}"`);
    expect(await app.events()).toEqual(before);
  });

  it('creating a tag needs only an authenticated caller (Unleash: NONE)', async () => {
    await expect(as(user(ROLE_VIEWER)).tags.createTag({ value: 'viewer-tag' })).resolves.toEqual({ type: 'simple', value: 'viewer-tag' });
    const [event] = await app.events('tag-created');
    expect(event).toMatchObject({ createdBy: `role-${ROLE_VIEWER}@example.com`, createdByUserId: 100 + ROLE_VIEWER });
  });

  it('an Editor holds its root permissions, and its project permissions only in the default project', async () => {
    const editor = as(user(ROLE_EDITOR));
    await expect(editor.contextFields.create({ name: 'region' })).resolves.toMatchObject({ name: 'region' });
    await expect(editor.projects.create({ id: 'editors', name: 'Editors' })).resolves.toMatchObject({ id: 'editors' });
    await expect(editor.projects.update('default', { name: 'Default' })).resolves.toMatchObject({ id: 'default' });
    await expect(editor.projects.update('editors', { name: 'Nope' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'UPDATE_PROJECT' });
    await expect(editor.environments.create({ name: 'qa', type: 'test' })).rejects.toMatchObject({ name: 'NoAccessError', permission: 'ADMIN' });
  });
});
