import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { printSchema } from 'graphql';
import { MUTATION_PERMISSIONS, OPERATION_PERMISSIONS, REST_PERMISSIONS, permissionSentence } from '../../src/domain/access/operation-permissions';
import { ADMIN, NONE, PERMISSION_BY_NAME } from '../../src/domain/access/permissions';
import { buildSchema } from '../../src/resolvers';
import { startTestApp, type TestApp } from '../support/harness';
import { appRoutes } from '../support/routes';

/**
 * Issue 9: the operation table declares the permission of every state-changing REST route and every GraphQL
 * mutation. A route or mutation added without a declaration, or a declaration of something that does not exist,
 * fails here; the permission matrix test runs every declared operation against every role.
 */
let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app.close(); });

describe('the operation permission table', () => {
  // The SDK doors (/api/client, /api/frontend) take API tokens of their own kind instead of permissions: their rule is
  // tested in test/e2e/rest/sdk-door.test.ts.
  it('declares every state-changing /api route of the app (the SDK doors aside), and only routes that exist', () => {
    const writes = appRoutes(app.orm).routes
      .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.path.startsWith('/api/') && !/^\/api\/(client|frontend)(\/|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect(writes.length).toBeGreaterThan(60);
    const declared = [...REST_PERMISSIONS.keys()];
    expect({ undeclared: writes.filter((w) => !REST_PERMISSIONS.has(w)), notARoute: declared.filter((d) => !writes.includes(d)) })
      .toEqual({ undeclared: [], notARoute: [] });
  });

  it('declares every GraphQL mutation, and only mutations that exist', () => {
    const mutations = Object.keys(buildSchema().getMutationType()?.getFields() ?? {});
    expect(mutations.length).toBeGreaterThan(40);
    const declared = [...MUTATION_PERMISSIONS.keys()];
    expect({ undeclared: mutations.filter((m) => !MUTATION_PERMISSIONS.has(m)), notAMutation: declared.filter((d) => !mutations.includes(d)) })
      .toEqual({ undeclared: [], notAMutation: [] });
  });

  it('names only permissions that exist, and no route or mutation twice', () => {
    const unknown = OPERATION_PERMISSIONS.map((o) => o.permission).filter((p) => p !== NONE && p !== ADMIN && !PERMISSION_BY_NAME.has(p));
    expect(unknown).toEqual([]);
    const rest = OPERATION_PERMISSIONS.flatMap((o) => o.rest ?? []);
    const graphql = OPERATION_PERMISSIONS.flatMap((o) => o.graphql ?? []);
    expect(rest.length).toBe(REST_PERMISSIONS.size);
    expect(graphql.length).toBe(MUTATION_PERMISSIONS.size);
  });

  it('the printed schema says which permission each mutation needs', () => {
    const fields = buildSchema().getMutationType()?.getFields() ?? {};
    const undocumented = [...MUTATION_PERMISSIONS].filter(([name, declared]) => !fields[name]?.description?.endsWith(permissionSentence(declared))).map(([name]) => name);
    expect(undocumented).toEqual([]);
    expect(printSchema(buildSchema())).toContain('Needs the UPDATE_FEATURE_ENVIRONMENT permission in the project and environment it changes.');
  });
});
