import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { NotFoundError, ValidationError } from '../errors';
import {
  assembleFeatures, groupStrategies, toFeatureEnvironmentState, toFeatureSummary,
} from '../features/feature.read-model';
import type { Feature } from '../features/feature.shapes';
import { contextFromBody } from '../frontend/frontend-context';
import type { FrontendEvaluation } from '../frontend/frontend-api.service';
import type { ClientFeatureScope, ClientFeatureSnapshot } from '../client-features/client-features.read-model';
import { evaluateFast } from '../playground/engine';
import { parse } from '../validation';
import { clientSnapshotAt, playgroundSnapshotsAt } from './past-answers';
import { stateRows, type FeatureState } from './feature-state';
import { HistoryReadModel, type Point, type VersionEventRow, type VersionRow } from './history.read-model';
import type { FeatureVersion } from './history.shapes';
import { checkKept, pointOf, pointSchema } from './point';
import { projectOf } from './revert.store';
import { diffStates, type DiffEntry } from './version-diff';

export const versionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Most versions in the answer (1–100, default 20)'),
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Only versions older than this version number (the next page)'),
});

export const diffQuerySchema = z.object({
  from: pointSchema.shape.at.unwrap().describe('The earlier instant (ISO 8601)'),
  to: pointSchema.shape.at.describe('The later instant (ISO 8601; default now)'),
});

const projectsSchema = z.union([z.literal('*'), z.array(z.string().min(1).max(100)).max(1000)], { error: 'must be "*" (all projects) or an array of project ids' });

/** `POST /api/admin/history/frontend`: the frontend API's question asked of the past. */
export const frontendAtSchema = z.object({
  environment: z.string().min(1).max(100).describe('The environment a frontend token of that scope reads'),
  projects: projectsSchema.optional().describe('The token’s projects (default every project)'),
  ...pointSchema.shape,
  context: z.record(z.string(), z.unknown()).optional().describe('The context, as `POST /api/frontend` takes it (`currentTime` defaults to the instant)'),
});

/** A flag's difference between two instants. */
export interface FeatureDiff {
  name: string;
  diff: DiffEntry[];
}

/**
 * Reading the past of flags (issue 43): their versions with what changed and who changed it, a flag as it was, and the
 * difference between two instants. Reads need what the admin API's other reads need (an admin-API principal); the
 * flag must belong to the project in the path (where it is now, or where it last was when it is gone).
 */
export class HistoryService {
  private readonly read: HistoryReadModel;

  constructor(private readonly em: EntityManager) {
    this.read = new HistoryReadModel(em);
  }

  /** The flag's versions, newest first, each with its diff from the one before and the events that made it. */
  async versions(project: string, name: string, query: unknown): Promise<FeatureVersion[]> {
    const { limit, before } = parse(versionsQuerySchema, query);
    await this.checkProject(project, name);
    const rows = await this.read.versions(name, limit + 1, before);
    const page = rows.slice(0, limit);
    const events = await this.read.events(page.map((r) => r.txid), name);
    return page.map((row, i) => toVersion(row, rows[i + 1]?.state ?? null, events.filter((e) => e.txid === row.txid)));
  }

  /** The flag as it was at `point` (the Feature of `GET …/features/:name`), 404 where it did not exist. */
  async featureAt(project: string, name: string, query: unknown): Promise<Feature> {
    const point = requiredPoint(query);
    await checkKept(this.read, point);
    await this.checkProject(project, name);
    const row = await this.read.versionAt(name, point);
    if (!row?.state) throw new NotFoundError(`The feature ${name} did not exist at ${describe(point)}.`);
    return this.asFeature(row.state, point);
  }

  /** A flag's difference (or every flag's of a project, when `name` is absent) from `from` to `to`. */
  async diff(project: string, name: string | undefined, query: unknown): Promise<FeatureDiff[]> {
    const input = parse(diffQuerySchema, query);
    const from: Point = { at: new Date(input.from) };
    const to: Point = { at: input.to ? new Date(input.to) : new Date() };
    if (from.at > to.at) throw ValidationError.single('from', '`from` must not be after `to`.');
    await checkKept(this.read, from);
    if (name !== undefined) await this.checkProject(project, name);
    const filter = name !== undefined ? { names: [name] } : { projects: [project] };
    const before = await this.read.states(from, filter);
    const after = await this.read.states(to, filter);
    const beforeByName = new Map(before.map((s) => [s.name, s]));
    const afterByName = new Map(after.map((s) => [s.name, s]));
    const names = [...new Set([...beforeByName.keys(), ...afterByName.keys()])].sort();
    return names
      .map((n) => ({ name: n, diff: diffStates(beforeByName.get(n) ?? null, afterByName.get(n) ?? null) }))
      .filter((d) => d.diff.length > 0);
  }

  /** The snapshot `GET /api/client/features` answered for `scope` at the point the query names. */
  async clientFeaturesAt(scope: ClientFeatureScope, query: unknown): Promise<ClientFeatureSnapshot> {
    return clientSnapshotAt(this.em, scope, requiredPoint(query));
  }

  /**
   * The frontend API's evaluation for a token of `environment` and `projects` at the point: the flags as they were,
   * evaluated by today's engine, with the instant as the context's current time unless it names one.
   */
  async frontendAt(body: unknown): Promise<FrontendEvaluation> {
    const input = parse(frontendAtSchema, body);
    const point = requiredPoint(input);
    const context = contextFromBody({ context: (body as { context?: unknown }).context });
    const snapshot = (await playgroundSnapshotsAt(this.em, point, [input.environment], input.projects ?? '*')).get(input.environment)!;
    if (context.sessionId === undefined) context.sessionId = String(Math.random());
    const now = 'at' in point ? point.at.getTime() : Date.now();
    return { snapshot, decisions: evaluateFast(snapshot, context, { now: () => now }) };
  }

  /** 404 unless the flag is in `project` now, or was there in its last recorded state. */
  private async checkProject(project: string, name: string): Promise<void> {
    if ((await projectOf(this.em, name)) !== project) throw new NotFoundError(`There's no feature named "${name}" in project "${project}".`);
  }

  /** A past state in the Feature shape: environments of its project that are on now, their type and order as now. */
  private async asFeature(state: FeatureState, point: Point): Promise<Feature> {
    const environments = await this.read.projectEnvironments(state.project);
    const rows = stateRows([state]);
    const summary = toFeatureSummary(rows.features[0]);
    const strategies = groupStrategies(rows.strategyRows);
    const envStates = environments.flatMap((e) => {
      const past = state.environments.find((p) => p.name === e.name && p.configured);
      if (!past) return [];
      return [toFeatureEnvironmentState({
        feature_name: state.name, environment: e.name, enabled: past.enabled, variants: past.variants, last_seen_at: null,
        type: e.type, sort_order: e.sort_order,
        strategy_count: past.strategies.length, enabled_count: past.strategies.filter((s) => !s.disabled).length,
      })];
    });
    const dependencies = rows.dependencyRows.map((d) => (d.enabled && d.variants.length > 0
      ? { feature: d.parent, enabled: d.enabled, variants: d.variants } : { feature: d.parent, enabled: d.enabled }));
    return assembleFeatures([summary], new Map([[state.name, envStates]]), strategies, new Map([[state.name, state.tags]]),
      new Map([[state.name, dependencies]]), new Map([[state.name, await this.read.children(state.name, point)]]))[0];
  }
}

function requiredPoint(input: unknown): Point {
  const point = pointOf(parse(pointSchema, input));
  if (!point) throw ValidationError.single('at', 'Give `at` (an instant) or `revision`.');
  return point;
}

const describe = (point: Point) => ('at' in point ? point.at.toISOString() : `revision ${point.revision}`);

function toVersion(row: VersionRow, previous: FeatureState | null, events: VersionEventRow[]): FeatureVersion {
  const author = events[0];
  return {
    version: row.version,
    revision: Number(row.revision),
    createdAt: iso(row.committed_at),
    createdBy: author?.created_by ?? null,
    createdByUserId: author?.created_by_user_id ?? null,
    archived: row.state?.archivedAt != null,
    deleted: row.state === null,
    events: events.map((e) => ({
      id: Number(e.id), type: e.type, createdBy: e.created_by, createdByUserId: e.created_by_user_id, createdAt: iso(e.created_at), environment: e.environment,
    })),
    diff: diffStates(previous, row.state),
  };
}
