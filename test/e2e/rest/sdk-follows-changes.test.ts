/**
 * Issue 32's acceptance: the official Node SDK (unleash-client 6.12.1), in every way it reads flags, follows a long
 * sequence of random changes and ends with exactly the state of `GET /api/client/features`. SDKs in each served mode
 * read with two tokens (both projects; one project), then 100 changes drawn from a seeded random source are made
 * through the admin API across the two projects and the SDKs' environment (switches, strategies added, edited,
 * disabled and removed, constraints, segments edited, attached and detached, variants, archive, revive, new flags,
 * project moves once flagdeck has them, and changes in another environment that no SDK here sees). After every
 * CHECK_EVERY changes and at the end, each SDK must hold what the client API answers for its token; at the end the
 * one-project SDKs must hold exactly that project's flags.
 *
 * SDK_CHANGES_SEED=<n> replays another sequence (the seed is printed); the log of the changes made is in a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../../support/harness';
import { ok, randomChanges } from '../../support/random-changes';
import { ALL_SDK_MODES, sdkState, startSdk, untilSdkMatches, type SdkHandle, type SdkMode } from '../../support/sdk-harness';

const SEED = Number(process.env.SDK_CHANGES_SEED ?? 20_260_132);
const CHANGES = 100;
const CHECK_EVERY = 10;
/** How long an SDK may take to show a change (polls every POLL_MS; a stream is pushed to). */
const FOLLOW_TIMEOUT_MS = 5000;
const POLL_MS = 100;

const ENVIRONMENT = 'development';
const OTHER_ENVIRONMENT = 'production';
const PROJECTS = ['default', 'alpha'] as const;
const SCOPED_PROJECT = 'alpha';

let app: TestApp;
const handles: Array<SdkHandle & { token: string; scope: 'all' | typeof SCOPED_PROJECT }> = [];
const log: string[] = [];

// ---- the test ----------------------------------------------------------------------------------------------------

let changes: ReturnType<typeof randomChanges>;

beforeAll(async () => {
  app = await startTestApp();
  changes = randomChanges(app, { seed: SEED, environment: ENVIRONMENT, otherEnvironment: OTHER_ENVIRONMENT, projects: PROJECTS });
  const { createFlag, createSegment } = changes;
  await ok('project alpha', app.post('/api/admin/projects', { id: SCOPED_PROJECT, name: 'Alpha' }), 201);
  for (const [name, legalValues] of [['region', ['eu', 'us', 'asia']], ['tier', ['free', 'pro', 'enterprise']], ['appVersion', []], ['age', []], ['email', []]] as const) {
    await ok(`context field ${name}`, app.post('/api/admin/context', { name, legalValues: legalValues.map((value) => ({ value })) }), 201);
  }
  for (let i = 0; i < 3; i += 1) await createSegment();
  for (const project of PROJECTS) for (let i = 0; i < 5; i += 1) await createFlag(project);
  const token = async (projects: string[]) => (await ok('client token', app.post('/api/admin/api-tokens', {
    tokenName: `sdk-${projects.join('-')}`, type: 'client', environment: ENVIRONMENT, projects,
  }), 201)).secret as string;
  const all = await token(['*']);
  const scoped = await token([SCOPED_PROJECT]);
  for (const mode of ALL_SDK_MODES) {
    handles.push({ ...(await startSdk(app, all, mode, { appName: `follow-${mode}-all`, refreshInterval: POLL_MS })), token: all, scope: 'all' });
    handles.push({ ...(await startSdk(app, scoped, mode, { appName: `follow-${mode}-${SCOPED_PROJECT}`, refreshInterval: POLL_MS })), token: scoped, scope: SCOPED_PROJECT });
  }
}, 30_000);

afterAll(async () => {
  for (const h of handles) h.destroy();
  await app.close();
});

describe(`the official Node SDK in ${ALL_SDK_MODES.join(', ')} mode`, () => {
  it(`follows ${CHANGES} random changes (seed ${SEED}) and ends with exactly what /api/client/features answers`, async () => {
    const { randomChange, active } = changes;
    const kinds = new Map<string, number>();
    const check = async (label: string) => {
      const recent = log.slice(-CHECK_EVERY).map((l) => `\n    ${l}`).join('');
      await Promise.all(handles.map((h) => untilSdkMatches(app, h.token, h, FOLLOW_TIMEOUT_MS,
        `${label}, token for ${h.scope === 'all' ? 'every project' : `project ${h.scope}`}; the last changes were:${recent}\n `)));
    };
    await check('before any change');
    for (let n = 1; n <= CHANGES; n += 1) {
      const { kind, what } = await randomChange(CHANGES - n + 1, kinds);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      log.push(`${n}. ${what}`);
      if (n % CHECK_EVERY === 0) await check(`after change ${n}`);
    }
    await check('at the end');

    // Every kind of change was made (a sequence that left some out would judge less than it claims).
    expect(changes.kinds.filter((k) => !kinds.has(k))).toEqual([]);

    // Against the admin API's own account: the one-project SDKs hold exactly that project's flags, the others all.
    const listed = async (project: string) => (await ok(`flags of ${project}`, app.get(`/api/admin/projects/${project}/features`))).features
      .map((f: { name: string }) => f.name) as string[];
    const byProject = new Map<string, string[]>();
    for (const project of PROJECTS) byProject.set(project, (await listed(project)).sort());
    expect(byProject.get(SCOPED_PROJECT)).toEqual(active(SCOPED_PROJECT).sort());
    for (const h of handles) {
      const held = (await sdkState(h)).features;
      const want = h.scope === 'all' ? [...byProject.values()].flat().sort() : byProject.get(SCOPED_PROJECT)!;
      expect({ mode: h.mode, scope: h.scope, flags: held.map((f) => f.name).sort() }).toEqual({ mode: h.mode, scope: h.scope, flags: want });
      if (h.scope !== 'all') expect({ mode: h.mode, projects: [...new Set(held.map((f) => f.project ?? SCOPED_PROJECT))] }).toEqual({ mode: h.mode, projects: [SCOPED_PROJECT] });
      expect({ mode: h.mode, scope: h.scope, errors: h.errors, warnings: h.warnings, modeChanges: h.modeChanges })
        .toEqual({ mode: h.mode, scope: h.scope, errors: [], warnings: [], modeChanges: [] });
    }
  }, 60_000);
});
