/**
 * Issue 43's acceptance: flagdeck replays its own past exactly. 200 changes drawn from a seeded random source (the
 * kinds of sdk-follows-changes: switches, strategies, constraints, segments, variants, archive, revive, moves, new
 * flags) are made through the admin API across two projects; after each one the test records the bytes
 * `GET /api/client/features` gives two client tokens (every project; one project), the bytes `POST /api/frontend`
 * gives a frontend token for two contexts, and the time. Afterwards the same answers asked **as of** each recorded
 * instant (`/api/admin/history/...`, admin token) are byte for byte the recorded ones; and a flag reverted to one of
 * its versions is served to SDKs exactly as it was served while that version was current.
 *
 * HISTORY_CHANGES_SEED=<n> replays another sequence.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../support/harness';
import { ok, randomChanges } from '../../support/random-changes';

const SEED = Number(process.env.HISTORY_CHANGES_SEED ?? 20_261_129);
const CHANGES = 200;
const ENVIRONMENT = 'development';
const PROJECTS = ['default', 'alpha'] as const;
const SCOPED_PROJECT = 'alpha';
const CONTEXTS = [
  { userId: 'u1', sessionId: 's1', properties: { region: 'eu', tier: 'pro', appVersion: '1.2.0', age: '30', email: 'user1@example.com' } },
  { userId: 'u3', sessionId: 's9', properties: { region: 'us', tier: 'free', appVersion: '2.0.0', age: '65', email: 'x@other.org' } },
];

interface Recorded {
  step: string;
  at: string;
  client: { all: string; scoped: string };
  frontend: string[];
}

let app: TestApp;
let changes: ReturnType<typeof randomChanges>;
const tokens = { all: '', scoped: '', frontend: '' };
const records: Recorded[] = [];
const log: string[] = [];

/** The answer's bytes as text (the harness parses JSON; this test compares what was sent). */
async function text(path: string, token: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<string> {
  const res = await fetch(`${app.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: token, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${body}`);
  return body;
}

/** The every-project token reads segments apart (a spec version that knows them), the one-project token inlined. */
const SEPARATE = { 'unleash-client-spec': '5.0.0' };

async function record(step: string): Promise<void> {
  const client = {
    all: await text('/api/client/features', tokens.all, { headers: SEPARATE }),
    scoped: await text('/api/client/features', tokens.scoped),
  };
  const frontend: string[] = [];
  for (const context of CONTEXTS) frontend.push(await text('/api/frontend', tokens.frontend, { method: 'POST', body: { context } }));
  records.push({ step, at: new Date().toISOString(), client, frontend });
}

const clientAt = (at: string, projects?: string) =>
  text(`/api/admin/history/client-features?environment=${ENVIRONMENT}${projects ? `&projects=${projects}` : ''}&at=${encodeURIComponent(at)}`, ADMIN_TOKEN,
    { headers: projects ? {} : SEPARATE });
const frontendAt = (at: string, context: unknown) =>
  text('/api/admin/history/frontend', ADMIN_TOKEN, { method: 'POST', body: { environment: ENVIRONMENT, at, context } });

/** Exact bytes; on a difference, the parsed answers first (a readable diff), with the step that recorded it. */
function expectSame(what: string, got: string, want: string): void {
  if (got === want) return;
  expect({ what, answer: JSON.parse(got) }).toEqual({ what, answer: JSON.parse(want) });
  expect({ what, bytes: got }).toEqual({ what, bytes: want });
}

beforeAll(async () => {
  app = await startTestApp();
  changes = randomChanges(app, { seed: SEED, environment: ENVIRONMENT, otherEnvironment: 'production', projects: PROJECTS });
  await ok('project alpha', app.post('/api/admin/projects', { id: SCOPED_PROJECT, name: 'Alpha' }), 201);
  for (const [name, legalValues] of [['region', ['eu', 'us', 'asia']], ['tier', ['free', 'pro', 'enterprise']], ['appVersion', []], ['age', []], ['email', []]] as const) {
    await ok(`context field ${name}`, app.post('/api/admin/context', { name, legalValues: legalValues.map((value) => ({ value })) }), 201);
  }
  for (let i = 0; i < 3; i += 1) await changes.createSegment();
  for (const project of PROJECTS) for (let i = 0; i < 5; i += 1) await changes.createFlag(project);
  const token = async (type: string, projects: string[]) => (await ok(`${type} token`, app.post('/api/admin/api-tokens', {
    tokenName: `history-${type}-${projects.join('-')}`, type, environment: ENVIRONMENT, projects,
  }), 201)).secret as string;
  tokens.all = await token('client', ['*']);
  tokens.scoped = await token('client', [SCOPED_PROJECT]);
  tokens.frontend = await token('frontend', ['*']);
}, 30_000);

afterAll(async () => {
  await app.close();
});

describe(`history replays ${CHANGES} random changes (seed ${SEED})`, () => {
  it('answers as of every recorded instant exactly what SDKs were served then', async () => {
    await record('before any change');
    const kinds = new Map<string, number>();
    for (let n = 1; n <= CHANGES; n += 1) {
      const { kind, what } = await changes.randomChange(CHANGES - n + 1, kinds);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      log.push(`${n}. ${what}`);
      await record(`after change ${n}: ${what}`);
    }
    expect(changes.kinds.filter((k) => !kinds.has(k))).toEqual([]);

    for (const r of records) {
      expectSame(`client answer (every project) ${r.step}`, await clientAt(r.at), r.client.all);
      expectSame(`client answer (project ${SCOPED_PROJECT}) ${r.step}`, await clientAt(r.at, SCOPED_PROJECT), r.client.scoped);
      for (const [i, context] of CONTEXTS.entries()) expectSame(`frontend answer (context ${i + 1}) ${r.step}`, await frontendAt(r.at, context), r.frontend[i]);
    }
  }, 120_000);

  it('a flag reverted to the version it had at a recorded instant is served as it was served then', async () => {
    // Flags with several versions, each taken back to the version it had at a recorded instant drawn at random.
    const reverted: string[] = [];
    for (const name of [...changes.flags.keys()]) {
      const { versions } = await ok(`versions of ${name}`, app.get(`${changes.featurePath(name)}/versions?limit=100`));
      if (versions.length < 4 || reverted.length >= 6) continue;
      const first = versions[versions.length - 1].createdAt;
      const candidates = records.filter((r) => r.at >= first);
      const r = candidates[changes.int(0, Math.floor(candidates.length / 2))];
      const version = versions.find((v: { createdAt: string }) => v.createdAt <= r.at);
      if (!version || version.deleted || version.version === versions[0].version) continue;
      const made = await ok(`reverting ${name} to version ${version.version}`, app.post(`${changes.featurePath(name)}/revert`, { version: version.version }));
      expect(made).toMatchObject({ version: version.version, drafts: [] });
      const flag = (answer: string) => (JSON.parse(answer).features as Array<{ name: string }>).find((f) => f.name === name);
      const now = await text('/api/client/features', tokens.all, { headers: SEPARATE });
      expect({ name, version: version.version, served: flag(now) }).toEqual({ name, version: version.version, served: flag(r.client.all) });
      // Its events say what they undo; the flag's newest version is the result.
      const events = (await app.events()).filter((e) => e.featureName === name && e.revertOf);
      if (made.changes.length > 0) expect(events.length).toBeGreaterThan(0);
      for (const e of events) expect(e.revertOf).toEqual({ featureName: name, version: version.version });
      if (changes.flags.get(name)!.archived !== (version.archived as boolean)) changes.flags.get(name)!.archived = version.archived;
      reverted.push(`${name}@${version.version}: ${made.changes.map((c: { action: string }) => c.action).join(' ')}`);
    }
    // Enough reverts that changed something (a version equal to the flag now changes nothing).
    expect({ reverted, changing: reverted.filter((r) => !r.endsWith(': ')).length >= 3 }).toMatchObject({ changing: true });
  }, 60_000);
});
