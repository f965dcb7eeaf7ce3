import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import type { FeatureRow } from '../features/feature.entity';
import type { FeatureEnvironmentRow } from '../features/feature-environment.entity';
import { FeatureReadModel } from '../features/feature.read-model';
import { defaultStrategyFrom } from '../features/feature-strategy.rules';
import { defaultStrategySettings } from '../features/feature-strategy.store';
import type { FeatureVariant } from '../features/variant.shapes';
import type { TableRow } from '../rows';
import type { SegmentRow } from '../segments/segment.entity';
import {
  backgroundChanges, backgroundTargets, conflictsIn, targetKeys, targetShape, variantKey,
  type ChangeInEnvironment, type ConflictReport, type EnvironmentState, type RequestChanges, type StoredChange, type Targets,
} from './change-request-changes';
import { OPEN_STATES, type ChangeRequestState } from './change-request-states';
import type {
  ChangeRequest, ChangeRequestActor, ChangeRequestApproval, ChangeRequestChange, ChangeRequestComment, ChangeRequestDefaultChange,
} from './change-request.shapes';
import { ChangeRequestChangeSchema, ChangeRequestReviewSchema, ChangeRequestSchema, type ChangeRequestChangeRow, type ChangeRequestReviewRow } from './change-request.entity';
import type { ChangeRequestDbRow, CommentRow } from './change-request.store';

/** A change of a request as a read answers it, with the name of the segment a segment change names. */
type ChangeRow = StoredChange & Pick<TableRow<ChangeRequestChangeRow>, 'change_request_id' | 'created_by' | 'created_at'> & { segment_name: string | null };

const actor = (name: string): ChangeRequestActor => ({ username: name, imageUrl: null });
/** A change as stored: its action with the payload that action's shape validated when the change was proposed or edited. */
const toChange = (c: ChangeRow, conflict: string | undefined): ChangeRequestChange => ({
  id: c.id, action: c.action, ...(conflict !== undefined ? { conflict } : {}), payload: c.payload, createdBy: actor(c.created_by), createdAt: iso(c.created_at),
}) as ChangeRequestChange;
const toReview = (r: ChangeRequestReviewRow): ChangeRequestApproval => ({ createdBy: { id: r.createdByUserId ?? null, username: r.createdBy, imageUrl: null }, createdAt: iso(r.createdAt) });
export const toComment = (c: CommentRow): ChangeRequestComment => ({ id: c.id, text: c.text, createdBy: actor(c.created_by), createdAt: iso(c.created_at) });

/** Rows grouped by the request they belong to (`requestOf`), in one pass whatever the number of requests. */
function byRequest<T>(rows: T[], requestOf: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(requestOf(r));
    if (list) list.push(r);
    else out.set(requestOf(r), [r]);
  }
  return out;
}

/** One request of the project (by a valid id); undefined when it is not one of the project's. */
export async function changeRequestById(em: EntityManager, project: string, id: number): Promise<ChangeRequest | undefined> {
  const [request] = await readChangeRequests(em, 'where r.id = ? and r.project = ?', [id, project]);
  return request;
}

/** The project's open requests (Draft, In review, Approved, Scheduled), newest first. */
export async function openChangeRequests(em: EntityManager, project: string): Promise<ChangeRequest[]> {
  return readChangeRequests(em, 'where r.project = ? and r.state in (?)', [project, OPEN_STATES]);
}

/** The project's requests in one state, or all of them, newest first. */
export async function projectChangeRequests(em: EntityManager, project: string, state?: ChangeRequestState): Promise<ChangeRequest[]> {
  return state === undefined ? readChangeRequests(em, 'where r.project = ?', [project]) : readChangeRequests(em, 'where r.project = ? and r.state = ?', [project, state]);
}

/** Open requests of the project with changes to `feature`. */
export async function pendingChangeRequestsForFeature(em: EntityManager, project: string, feature: string): Promise<ChangeRequest[]> {
  return readChangeRequests(em, 'where r.project = ? and r.state in (?) and exists (select 1 from change_request_changes c where c.change_request_id = r.id and c.feature = ?)', [project, OPEN_STATES, feature]);
}

/** Which of these requests were written by `actor` (an `actorKey`). */
export async function authoredBy(em: EntityManager, ids: readonly number[], actorKey: string): Promise<Set<number>> {
  const rows = await em.find(ChangeRequestSchema, { id: { $in: [...ids] }, createdByActor: actorKey }, { fields: ['id'], disableIdentityMap: true });
  return new Set(rows.map((r) => Number(r.id)));
}

/** The changes of a request as stored, in the order they were made. */
export async function storedChanges(em: EntityManager, requestId: number): Promise<StoredChange[]> {
  const rows = await em.find(ChangeRequestChangeSchema, { changeRequestId: requestId }, { fields: ['id', 'feature', 'action', 'payload', 'snapshot'], orderBy: { id: 'asc' }, disableIdentityMap: true });
  return rows.map(({ id, feature, action, payload, snapshot }) => ({ id, feature: feature ?? null, action, payload, snapshot: snapshot ?? null }));
}

/**
 * A Scheduled request found due by the scheduler: who scheduled it (by name, and by id in `scheduled_by_actor`, the
 * one whose current rights the application is checked against) and when (set on every Scheduled request), with the
 * time exactly as stored (`scheduled_at_text`, microseconds included), to recognise this very schedule later.
 */
export type DueRow = Pick<ChangeRequestDbRow, 'id' | 'scheduled_by_user_id' | 'scheduled_by_actor'>
  & { [K in 'scheduled_by' | 'scheduled_at']: NonNullable<ChangeRequestDbRow[K]> }
  & { scheduled_at_text: string };

/** Up to `limit` Scheduled requests whose time has come and that have not failed, the earliest first. */
export async function dueChangeRequests(em: EntityManager, limit: number): Promise<DueRow[]> {
  return em.execute(
    `select id, scheduled_by, scheduled_by_user_id, scheduled_by_actor, scheduled_at, scheduled_at::text as scheduled_at_text from change_requests
      where state = 'Scheduled' and schedule_status = 'pending' and scheduled_at <= now() order by scheduled_at, id limit ?`, [limit]);
}

/** Runs the reads at once, or one after the other inside a transaction (whose one connection cannot run two). */
async function inTurn<T extends readonly unknown[]>(em: EntityManager, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (!em.isInTransaction()) return Promise.all(reads.map((r) => r())) as unknown as Promise<T>;
  const out: unknown[] = [];
  for (const read of reads) out.push(await read());
  return out as unknown as T;
}

/** The targets of the changes as they are now, in one statement per kind. */
async function readTargets(em: EntityManager, items: readonly ChangeInEnvironment[]): Promise<Targets> {
  const { features, strategyIds, variantPairs, segmentIds } = targetKeys(items);
  // Inside a transaction the statements share its one connection: run them one after the other (the driver refuses
  // to queue them itself); outside, each may take its own connection.
  const [featureRows, strategies, variantRows, segmentRows] = await inTurn(em, [
    async () => features.length === 0 ? [] : em.execute('select name, project, archived_at is not null as archived from features where name in (?)', [features]) as Promise<Array<Pick<TableRow<FeatureRow>, 'name' | 'project'> & { archived: boolean }>>,
    async () => new FeatureReadModel(em).strategiesById(strategyIds),
    async () => variantPairs.length === 0 ? [] : em.execute(
      `select fe.feature_name, fe.environment, fe.variants from feature_environments fe
        join jsonb_to_recordset(?::jsonb) as k(feature text, environment text) on k.feature = fe.feature_name and k.environment = fe.environment`,
      [JSON.stringify(variantPairs)]) as Promise<Array<Pick<TableRow<FeatureEnvironmentRow>, 'feature_name' | 'environment' | 'variants'>>>,
    async () => segmentIds.length === 0 ? [] : em.execute('select id, name, description, project, constraints from segments where id in (?)', [segmentIds]) as Promise<Array<Pick<TableRow<SegmentRow>, 'id' | 'name' | 'description' | 'project' | 'constraints'>>>,
  ]);
  return {
    features: new Map(featureRows.map((f) => [f.name, { project: f.project, archived: f.archived }])),
    strategies,
    variants: new Map(variantRows.map((v) => [variantKey(v.feature_name, v.environment), v.variants ?? []])),
    segments: new Map(segmentRows.map((s) => [s.id, { name: s.name, description: s.description, project: s.project, constraints: s.constraints }])),
  };
}

/** The snapshot of each change's target, taken when it is proposed or edited (in the same transaction). */
export async function snapshotsOf(em: EntityManager, items: readonly ChangeInEnvironment[]): Promise<unknown[]> {
  const targets = await readTargets(em, items);
  return items.map(({ environment, change: c }) => targetShape(targets, environment, c));
}

/**
 * Conflicts of open requests' changes (all of one project): the feature, strategy, variants or segment a change
 * relies on vanished or changed since the change was made (or last edited). Four statements at most, whatever the
 * number of changes.
 */
export async function findConflicts(em: EntityManager, project: string, items: readonly ChangeInEnvironment[]): Promise<ConflictReport> {
  if (items.length === 0) return { features: new Map(), changes: new Map() };
  return conflictsIn(await readTargets(em, items), project, items);
}

/** The payload of an `addStrategy` background change: the strategy it would add. */
type DefaultStrategyPayload = Extract<ChangeRequestDefaultChange, { action: 'addStrategy' }>['payload'];

/**
 * The background change applying a request would make for each of its features, by `<request id>\0<feature>`
 * (`backgroundChanges` says which): the default strategy it would add is the project environment's.
 */
export async function defaultChanges(em: EntityManager, project: string, requests: readonly RequestChanges[]): Promise<Map<string, ChangeRequestDefaultChange>> {
  const out = new Map<string, ChangeRequestDefaultChange>();
  const pairs = backgroundTargets(requests);
  if (pairs.length === 0) return out;
  const rows: EnvironmentState[] = await em.execute(
    `select k.feature, k.environment, fe.enabled,
            coalesce((select json_agg(json_build_object('id', fs.id, 'disabled', fs.disabled)) from feature_strategies fs
                       where fs.feature_name = k.feature and fs.environment = k.environment), '[]') as strategies
       from jsonb_to_recordset(?::jsonb) as k(feature text, environment text)
       left join feature_environments fe on fe.feature_name = k.feature and fe.environment = k.environment`,
    [JSON.stringify(pairs)]);
  let settings: Awaited<ReturnType<typeof defaultStrategySettings>> | undefined;
  for (const b of backgroundChanges(requests, rows)) {
    if (b.action === 'addStrategy') {
      settings ??= await defaultStrategySettings(em, project, [...new Set(requests.map((q) => q.environment))]);
      // defaultStrategyFrom always gives `parameters` and `constraints` (StrategyData, an update's, has them optional).
      const payload = { ...defaultStrategyFrom(settings.get(b.environment), b.feature) } as DefaultStrategyPayload;
      out.set(b.key, { action: 'addStrategy', payload });
    } else {
      out.set(b.key, { action: 'updateEnabled', payload: { enabled: false } });
    }
  }
  return out;
}

/**
 * Requests matching `where` (over `change_requests r`), newest first, with their changes, reviews and comments (4
 * statements), and for open requests the conflicts and background changes of their changes (up to 5 more, whatever
 * the number of requests).
 */
async function readChangeRequests(em: EntityManager, where: string, params: unknown[]): Promise<ChangeRequest[]> {
  const requests: ChangeRequestDbRow[] = await em.execute(`select r.* from change_requests r ${where} order by r.id desc limit 1000`, params);
  if (requests.length === 0) return [];
  const ids = requests.map((r) => r.id);
  const [changes, comments, reviews] = await Promise.all([
    em.execute(`select c.*, s.name as segment_name from change_request_changes c
                  left join segments s on c.feature is null and s.id::text = c.payload->>'id'
                 where c.change_request_id in (?) order by c.id`, [ids]) as Promise<ChangeRow[]>,
    em.execute('select * from change_request_comments where change_request_id in (?) order by id', [ids]) as Promise<CommentRow[]>,
    // Reviews are rewritten by SQL (a rejection replaces an approval): read afresh, never from the identity map.
    em.find(ChangeRequestReviewSchema, { changeRequestId: { $in: ids } }, { orderBy: [{ createdAt: 'asc' }, { createdBy: 'asc' }], disableIdentityMap: true }),
  ]);
  const changesOf = byRequest(changes, (c) => c.change_request_id);
  const commentsOf = byRequest(comments, (c) => c.change_request_id);
  const reviewsOf = byRequest(reviews, (v) => v.changeRequestId);
  // Conflicts and background changes matter only while a request can still be applied.
  const open = requests.filter((r) => OPEN_STATES.includes(r.state));
  const project = requests[0].project;
  const [conflicts, defaults] = open.length === 0
    ? [{ features: new Map<string, string>(), changes: new Map<number, string>() }, new Map<string, ChangeRequestDefaultChange>()]
    : await Promise.all([
      findConflicts(em, project, open.flatMap((r) => (changesOf.get(r.id) ?? []).map((change) => ({ environment: r.environment, change })))),
      defaultChanges(em, project, open.map((r) => ({ id: r.id, environment: r.environment, changes: changesOf.get(r.id) ?? [] }))),
    ]);
  return requests.map((r) => {
    const isOpen = OPEN_STATES.includes(r.state);
    const features = new Map<string, ChangeRequestChange[]>();
    const segments = new Map<number, { id: number; name: string; changes: ChangeRequestChange[] }>();
    for (const c of changesOf.get(r.id) ?? []) {
      const change = toChange(c, isOpen ? conflicts.changes.get(c.id) : undefined);
      if (c.feature !== null) {
        features.set(c.feature, [...(features.get(c.feature) ?? []), change]);
      } else {
        const segment = Number((c.payload as { id?: number }).id);
        const entry = segments.get(segment) ?? { id: segment, name: c.segment_name ?? String(segment), changes: [] };
        entry.changes.push(change);
        segments.set(segment, entry);
      }
    }
    const requestReviews = reviewsOf.get(r.id) ?? [];
    return {
      id: r.id,
      title: r.title ?? `Change request #${r.id}`,
      environment: r.environment,
      minApprovals: r.min_approvals,
      project: r.project,
      state: r.state,
      features: [...features].map(([name, list]) => {
        const conflict = isOpen ? conflicts.features.get(name) : undefined;
        const defaultChange = isOpen ? defaults.get(`${r.id}\u0000${name}`) : undefined;
        return { name, ...(conflict !== undefined ? { conflict } : {}), changes: list, ...(defaultChange ? { defaultChange } : {}) };
      }),
      segments: [...segments.values()],
      approvals: requestReviews.filter((v) => v.decision === 'approved').map(toReview),
      rejections: requestReviews.filter((v) => v.decision === 'rejected').map(toReview),
      comments: (commentsOf.get(r.id) ?? []).map(toComment),
      createdBy: actor(r.created_by),
      createdAt: iso(r.created_at),
      ...(r.state === 'Scheduled' && r.scheduled_at !== null
        ? { schedule: { scheduledAt: iso(r.scheduled_at), status: r.schedule_status ?? 'pending', failureReason: r.failure_reason } }
        : {}),
    };
  });
}
