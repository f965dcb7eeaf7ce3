/**
 * Random changes through the admin API, drawn from a seeded source, across two projects and an environment SDKs read
 * (and one they do not): switches, strategies added, edited, disabled and removed, constraints, segments edited,
 * attached and detached, variants, archive, revive, new flags and project moves. Used by the tests that follow a long
 * sequence of changes (sdk-follows-changes, history-replay); the same seed gives the same sequence.
 */
import { seededRandom } from '../../src/domain/playground/hashing';
import type { Reply, TestApp } from './harness';

export interface RandomChangeOptions {
  seed: number;
  /** The environment SDKs read (changes are made there), and another one (a few switches there). */
  environment: string;
  otherEnvironment: string;
  /** Two projects (the first `default`). */
  projects: readonly [string, string];
}

export const ok = async <T = any>(what: string, reply: Promise<Reply<T>>, ...statuses: number[]): Promise<T> => {
  const res = await reply;
  const wanted = statuses.length ? statuses : [200];
  if (!wanted.includes(res.status)) throw new Error(`${what}: expected ${wanted.join(' or ')}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

export function randomChanges(app: TestApp, { seed, environment: ENVIRONMENT, otherEnvironment: OTHER_ENVIRONMENT, projects: PROJECTS }: RandomChangeOptions) {
  // ---- the random source and the model of what exists ------------------------------------------------------------

  const random = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const chance = (p: number) => random() < p;
  const someOf = <T>(list: readonly T[]): T[] => {
    const chosen = list.filter(() => chance(0.5));
    return chosen.length ? chosen : [pick(list)];
  };

  /** The flags made here: project and whether archived (the admin API is the truth; this only picks targets). */
  const flags = new Map<string, { project: string; archived: boolean }>();
  const segments: number[] = [];
  let flagCounter = 0;
  let segmentCounter = 0;

  const featurePath = (name: string) => `/api/admin/projects/${flags.get(name)!.project}/features/${name}`;
  const envPath = (name: string, environment = ENVIRONMENT) => `${featurePath(name)}/environments/${environment}`;
  const active = (project?: string) => [...flags].filter(([, f]) => !f.archived && (!project || f.project === project)).map(([n]) => n);
  const archived = () => [...flags].filter(([, f]) => f.archived).map(([n]) => n);

  const CONSTRAINTS: Array<() => Record<string, unknown>> = [
    () => ({ contextName: 'region', operator: pick(['IN', 'NOT_IN']), values: someOf(['eu', 'us', 'asia']) }),
    () => ({ contextName: 'tier', operator: 'IN', values: someOf(['free', 'pro', 'enterprise']), inverted: chance(0.3) }),
    () => ({ contextName: 'appVersion', operator: pick(['SEMVER_GT', 'SEMVER_LT', 'SEMVER_EQ']), value: pick(['1.0.0', '1.2.0', '2.0.0-beta.1']) }),
    () => ({ contextName: 'age', operator: pick(['NUM_GTE', 'NUM_LT', 'NUM_EQ']), value: String(int(10, 70)) }),
    () => ({ contextName: 'email', operator: pick(['STR_ENDS_WITH', 'STR_CONTAINS', 'STR_STARTS_WITH']), values: someOf(['@example.com', 'user1', 'x']), caseInsensitive: chance(0.5) }),
    () => ({ contextName: 'currentTime', operator: pick(['DATE_AFTER', 'DATE_BEFORE']), value: `2025-${String(int(1, 12)).padStart(2, '0')}-01T00:00:00.000Z` }),
    () => ({ contextName: 'userId', operator: 'IN', values: someOf(['u1', 'u2', 'u3', 'u4']) }),
  ];
  const constraints = () => Array.from({ length: int(0, 2) }, () => pick(CONSTRAINTS)());

  /** A strategy body as the admin API takes it, with random parameters, constraints, segments and variants. */
  function strategyBody(flag: string): Record<string, unknown> {
    const name = pick(['default', 'flexibleRollout', 'flexibleRollout', 'userWithId']);
    const stickiness = pick(['default', 'userId', 'sessionId']);
    const parameters: Record<string, string> = name === 'flexibleRollout' ? { rollout: String(int(0, 100)), stickiness, groupId: flag }
      : name === 'userWithId' ? { userIds: someOf(['u1', 'u2', 'u3', 'u5', 'u8']).join(',') } : {};
    const variants = name === 'flexibleRollout' && chance(0.3)
      ? [{ name: 'blue', weightType: 'variable', weight: 0, stickiness }, { name: 'green', weightType: 'fix', weight: int(1, 999), stickiness, payload: { type: 'string', value: `g${int(0, 9)}` } }]
      : [];
    return { name, parameters, constraints: constraints(), segments: segments.length && chance(0.3) ? [pick(segments)] : [], variants, disabled: chance(0.1) };
  }

  async function strategiesOf(flag: string): Promise<Array<Record<string, any>>> {
    return ok(`strategies of ${flag}`, app.get(`${envPath(flag)}/strategies`));
  }

  /** The body of PUT for an existing strategy, from its current state. */
  const strategyUpdate = (s: Record<string, any>) => ({
    name: s.name, title: s.title ?? null, disabled: s.disabled ?? false, parameters: s.parameters ?? {}, constraints: s.constraints ?? [],
    variants: s.variants ?? [], segments: s.segments ?? [], sortOrder: s.sortOrder,
  });

  // ---- the changes -------------------------------------------------------------------------------------------------

  interface Change {
    kind: string;
    weight: number;
    /** Makes the change and returns what it did (for the log), or null when it has nothing to act on now. */
    apply(): Promise<string | null>;
  }

  async function createFlag(project: string): Promise<string> {
    flagCounter += 1;
    const name = `flag-${String(flagCounter).padStart(3, '0')}`;
    await ok(`creating ${name}`, app.post(`/api/admin/projects/${project}/features`, { name, impressionData: chance(0.2) }), 201);
    flags.set(name, { project, archived: false });
    for (let i = int(0, 2); i > 0; i -= 1) await ok(`a strategy of ${name}`, app.post(`${envPath(name)}/strategies`, strategyBody(name)));
    if (chance(0.7)) await ok(`switching ${name} on`, app.post(`${envPath(name)}/on`));
    return name;
  }

  async function createSegment(): Promise<number> {
    segmentCounter += 1;
    const created = await ok('creating a segment', app.post('/api/admin/segments', { name: `segment-${segmentCounter}`, constraints: constraints() }), 201);
    segments.push(created.id);
    return created.id;
  }

  /** A strategy of some active flag (null when no active flag has one). */
  async function someStrategy(): Promise<{ flag: string; strategy: Record<string, any> } | null> {
    const candidates = active();
    for (let tries = 0; tries < 5 && candidates.length; tries += 1) {
      const flag = pick(candidates);
      const list = await strategiesOf(flag);
      if (list.length) return { flag, strategy: pick(list) };
    }
    return null;
  }

  const CHANGE_KINDS: Change[] = [
    { kind: 'switch', weight: 18, async apply() {
      const flag = pick(active());
      const on = chance(0.5);
      await ok(`switching ${flag}`, app.post(`${envPath(flag)}/${on ? 'on' : 'off'}`));
      return `switch ${flag} ${on ? 'on' : 'off'}`;
    } },
    { kind: 'switch in another environment', weight: 4, async apply() {
      const flag = pick(active());
      const on = chance(0.5);
      await ok(`switching ${flag} in ${OTHER_ENVIRONMENT}`, app.post(`${envPath(flag, OTHER_ENVIRONMENT)}/${on ? 'on' : 'off'}`));
      return `switch ${flag} ${on ? 'on' : 'off'} in ${OTHER_ENVIRONMENT}`;
    } },
    { kind: 'add strategy', weight: 12, async apply() {
      const flag = pick(active());
      const created = await ok(`adding a strategy to ${flag}`, app.post(`${envPath(flag)}/strategies`, strategyBody(flag)));
      return `add ${created.name} strategy ${created.id} to ${flag}`;
    } },
    { kind: 'edit strategy', weight: 12, async apply() {
      const target = await someStrategy();
      if (!target) return null;
      const body: Record<string, unknown> = { ...strategyBody(target.flag), sortOrder: target.strategy.sortOrder };
      await ok(`editing strategy ${target.strategy.id}`, app.put(`${envPath(target.flag)}/strategies/${target.strategy.id}`, body));
      return `edit strategy ${target.strategy.id} of ${target.flag} to ${String(body.name)}`;
    } },
    { kind: 'edit constraints', weight: 8, async apply() {
      const target = await someStrategy();
      if (!target) return null;
      const body = { ...strategyUpdate(target.strategy), constraints: constraints(), disabled: chance(0.15) };
      await ok(`editing the constraints of strategy ${target.strategy.id}`, app.put(`${envPath(target.flag)}/strategies/${target.strategy.id}`, body));
      return `edit constraints of strategy ${target.strategy.id} of ${target.flag} (${body.constraints.length} now${body.disabled ? ', disabled' : ''})`;
    } },
    { kind: 'remove strategy', weight: 7, async apply() {
      const target = await someStrategy();
      if (!target) return null;
      await ok(`removing strategy ${target.strategy.id}`, app.del(`${envPath(target.flag)}/strategies/${target.strategy.id}`));
      return `remove strategy ${target.strategy.id} of ${target.flag}`;
    } },
    { kind: 'edit segment', weight: 8, async apply() {
      if (!segments.length) return null;
      const id = pick(segments);
      const current = await ok(`segment ${id}`, app.get(`/api/admin/segments/${id}`));
      await ok(`editing segment ${id}`, app.put(`/api/admin/segments/${id}`, { name: current.name, constraints: constraints() }), 200, 204);
      return `edit segment ${id}`;
    } },
    { kind: 'attach segment', weight: 6, async apply() {
      const target = await someStrategy();
      const id = segments.length ? pick(segments) : undefined;
      if (!target || id === undefined || (target.strategy.segments ?? []).includes(id)) return null;
      const body = { ...strategyUpdate(target.strategy), segments: [...(target.strategy.segments ?? []), id] };
      await ok(`attaching segment ${id}`, app.put(`${envPath(target.flag)}/strategies/${target.strategy.id}`, body));
      return `attach segment ${id} to strategy ${target.strategy.id} of ${target.flag}`;
    } },
    { kind: 'detach segment', weight: 6, async apply() {
      for (const flag of active()) {
        const withSegment = (await strategiesOf(flag)).filter((s) => (s.segments ?? []).length > 0);
        if (!withSegment.length || !chance(0.5)) continue;
        const strategy = pick(withSegment);
        const id = pick(strategy.segments as number[]);
        const body = { ...strategyUpdate(strategy), segments: strategy.segments.filter((s: number) => s !== id) };
        await ok(`detaching segment ${id}`, app.put(`${envPath(flag)}/strategies/${strategy.id}`, body));
        return `detach segment ${id} from strategy ${strategy.id} of ${flag}`;
      }
      return null;
    } },
    { kind: 'create segment', weight: 2, async apply() {
      return `create segment ${await createSegment()}`;
    } },
    { kind: 'variants', weight: 5, async apply() {
      const flag = pick(active());
      const variants = chance(0.2) ? [] : someOf(['red', 'amber', 'teal']).map((name) => ({
        name, weightType: 'variable', weight: 0, stickiness: pick(['default', 'userId']),
        ...(chance(0.5) ? { payload: { type: 'json', value: JSON.stringify({ n: int(0, 9) }) } } : {}),
        ...(chance(0.3) ? { overrides: [{ contextName: 'userId', values: ['u1'] }] } : {}),
      }));
      await ok(`variants of ${flag}`, app.put(`${envPath(flag)}/variants`, variants));
      return `set ${variants.length} variants on ${flag}`;
    } },
    { kind: 'archive', weight: 8, async apply() {
      if (active().length < 4) return null;
      const flag = pick(active());
      await ok(`archiving ${flag}`, app.del(featurePath(flag)), 202);
      flags.get(flag)!.archived = true;
      return `archive ${flag}`;
    } },
    { kind: 'revive', weight: 7, async apply() {
      if (!archived().length) return null;
      const flag = pick(archived());
      await ok(`reviving ${flag}`, app.post(`/api/admin/archive/revive/${flag}`));
      flags.get(flag)!.archived = false;
      return `revive ${flag}`;
    } },
    { kind: 'create flag', weight: 6, async apply() {
      const project = pick(PROJECTS);
      return `create ${await createFlag(project)} in ${project}`;
    } },
    { kind: 'move', weight: 6, async apply() {
      const flag = pick(active());
      const to = PROJECTS.find((p) => p !== flags.get(flag)!.project)!;
      // A flag with dependencies (or using a segment of its project) stays where it is: another draw.
      const res = await app.post(`${featurePath(flag)}/changeProject`, { newProjectId: to });
      if (res.status === 403 || res.status === 409) return null;
      if (res.status !== 200) throw new Error(`moving ${flag} to ${to}: ${res.status} ${JSON.stringify(res.body)}`);
      flags.get(flag)!.project = to;
      return `move ${flag} to ${to}`;
    } },
  ];

  /**
   * The next change: drawn by weight, except that once the changes left are as few as the kinds not made yet, those
   * kinds come first (in random order), so every sequence makes every kind of change whatever the seed.
   */
  async function randomChange(left: number, made: ReadonlyMap<string, number>): Promise<{ kind: string; what: string }> {
    const missing = CHANGE_KINDS.filter((c) => !made.has(c.kind));
    if (missing.length >= left) {
      for (const change of [...missing].sort(() => random() - 0.5)) {
        const what = await change.apply();
        if (what) return { kind: change.kind, what };
      }
    }
    const total = CHANGE_KINDS.reduce((sum, c) => sum + c.weight, 0);
    for (;;) {
      let roll = random() * total;
      const change = CHANGE_KINDS.find((c) => (roll -= c.weight) < 0) ?? CHANGE_KINDS[0];
      const what = await change.apply();
      if (what) return { kind: change.kind, what };
    }
  }

  return { flags, segments, createFlag, createSegment, randomChange, active, archived, featurePath, envPath, kinds: CHANGE_KINDS.map((c) => c.kind), int, pick, chance };
}
