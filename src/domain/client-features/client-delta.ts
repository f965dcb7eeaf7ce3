import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readModelVersion } from '../model-version';
import { hydrationJson, segmentIds, type ClientAnswer, type FeaturePart } from './client-answer-cache';
import {
  readAttachedSegmentIds, readClientFeatures, readClientSegments, readUsedClientSegments, type ClientFeature, type ClientFeatureScope,
  type ClientSegment,
} from './client-features.read-model';
import { readRevisionChanges, type FeatureChange, type RevisionChanges } from './revision-log.store';

/**
 * Deltas of the client API (issue 32), as the official SDKs read them (unleash-client 6.x on `/api/client/streaming`
 * and `/api/client/delta`): a body `{"events":[…]}` whose events, applied in order, bring a client from one revision
 * to another. `hydration` holds a whole state; `feature-updated` a flag in the client shape, `feature-removed` its name
 * and project, `segment-updated` a segment, `segment-removed` its id. Each event's `eventId` is the revision (a value
 * of `model_version`) of the change it reflects, so events come in increasing order; a hydration's is the revision it
 * is the state of. Segments always go apart from the flags (the delta form has no inlined segments).
 */

/** What a client holds at `version`: each flag as it was sent, and the segments it was sent (those its flags use). */
export interface DeltaState {
  version: bigint;
  features: Map<string, FeaturePart>;
  /** Segment id → its JSON as sent. */
  segments: Map<number, string>;
  /** Segment id → how many of the flags use it: a segment no flag uses any more is removed from the client. */
  uses: Map<number, number>;
}

function countUses(features: Iterable<FeaturePart>): Map<number, number> {
  const uses = new Map<number, number>();
  for (const f of features) for (const id of f.segments) uses.set(id, (uses.get(id) ?? 0) + 1);
  return uses;
}

function use(state: DeltaState, part: FeaturePart | undefined, by: 1 | -1): void {
  for (const id of part?.segments ?? []) state.uses.set(id, (state.uses.get(id) ?? 0) + by);
}

/** The state an answer (in the `separate` segment mode) describes. */
export function stateFromAnswer(answer: ClientAnswer): DeltaState {
  return {
    version: BigInt(answer.version),
    features: new Map(answer.features),
    segments: new Map(answer.segments.map((s) => [s.id, JSON.stringify(s)])),
    uses: countUses(answer.features.values()),
  };
}

/** The state of a snapshot read at `version`. */
export function stateOf(version: bigint, snapshot: { features: ClientFeature[]; segments: ClientSegment[] }): DeltaState {
  const features = new Map(snapshot.features.map((f) => [f.name, featurePart(f)]));
  return { version, features, segments: new Map(snapshot.segments.map((s) => [s.id, JSON.stringify(s)])), uses: countUses(features.values()) };
}

/** The body of one `hydration` event holding `state`, flags by name. */
export function hydrationBody(state: DeltaState): string {
  const names = [...state.features.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const segments = [...state.segments.keys()].sort((a, b) => a - b);
  return hydrationJson(state.version.toString(), `[${names.map((n) => state.features.get(n)!.json).join(',')}]`,
    `[${segments.map((id) => state.segments.get(id)!).join(',')}]`);
}

/** A delta body from events; `undefined` when there are none (a change the client cannot see). */
export function deltaBody(events: DeltaEvent[]): string | undefined {
  if (events.length === 0) return undefined;
  events.sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : ORDER[a.type] - ORDER[b.type]));
  return `{"events":[${events.map((e) => e.json).join(',')}]}`;
}

export interface DeltaEvent {
  eventId: bigint;
  type: keyof typeof ORDER;
  json: string;
}

/**
 * Within one revision: segments a flag may refer to first, removed segments last. A removed segment's revision is the
 * range's last: it is unused as of then (the revision that made it so is not recorded).
 */
const ORDER = { 'segment-updated': 0, 'feature-updated': 1, 'feature-removed': 2, 'segment-removed': 3 } as const;

const featureUpdated = (eventId: bigint, json: string): DeltaEvent => ({ eventId, type: 'feature-updated', json: `{"eventId":${eventId},"type":"feature-updated","feature":${json}}` });
const featureRemoved = (eventId: bigint, featureName: string, project: string | undefined): DeltaEvent => ({
  eventId, type: 'feature-removed', json: `{"eventId":${eventId},"type":"feature-removed","featureName":${JSON.stringify(featureName)},"project":${JSON.stringify(project ?? null)}}`,
});
const segmentUpdated = (eventId: bigint, json: string): DeltaEvent => ({ eventId, type: 'segment-updated', json: `{"eventId":${eventId},"type":"segment-updated","segment":${json}}` });
const segmentRemoved = (eventId: bigint, segmentId: number): DeltaEvent => ({ eventId, type: 'segment-removed', json: `{"eventId":${eventId},"type":"segment-removed","segmentId":${segmentId}}` });

/** The flag's JSON and project as a client of the delta form holds it (segments apart, so the flag as read). */
function featurePart(feature: ClientFeature): FeaturePart {
  return { json: JSON.stringify(feature), project: feature.project, segments: segmentIds(feature) };
}

const inEnvironment = (change: FeatureChange, scope: ClientFeatureScope) => change.environments.has(null) || change.environments.has(scope.environment);

/** Could the change concern a client of `scope`: its environment, name prefix and (when recorded) projects. */
function mayConcern(name: string, change: FeatureChange, scope: ClientFeatureScope): boolean {
  if (!inEnvironment(change, scope)) return false;
  if (scope.namePrefix && !name.startsWith(scope.namePrefix)) return false;
  if (scope.projects === '*' || change.projects.size === 0) return true;
  for (const p of change.projects) if (scope.projects.includes(p)) return true;
  return false;
}

/** A project of the change that `scope` covers: the flag may have been visible to the client there. */
function visibleProject(change: FeatureChange, scope: ClientFeatureScope): string | undefined {
  for (const p of change.projects) if (scope.projects === '*' || scope.projects.includes(p)) return p;
  return undefined;
}

/**
 * Brings `state` (what the clients of `scope` hold, at `changes.from`) to `changes.to`, reading through `tx` (whose
 * snapshot is `changes.to`) only the flags and segments that changed. Returns the events that differ from what the
 * clients hold: none when the change is of nothing they can see.
 */
export async function advanceState(tx: EntityManager, scope: ClientFeatureScope, state: DeltaState, changes: RevisionChanges): Promise<DeltaEvent[]> {
  const candidates: string[] = [];
  for (const [name, change] of changes.features) {
    if (mayConcern(name, change, scope) || (state.features.has(name) && inEnvironment(change, scope))) candidates.push(name);
  }
  const loaded = await readClientFeatures(tx, scope, candidates);
  const segments = new Map(loaded.segments.map((s) => [s.id, s]));
  const recheck = [...changes.segments.keys()].filter((id) => state.segments.has(id) && !segments.has(id));
  for (const s of await readClientSegments(tx, recheck)) segments.set(s.id, s);

  const events: DeltaEvent[] = [];
  const present = new Set<string>();
  const touched = new Set<number>(recheck);
  for (const feature of loaded.features) {
    present.add(feature.name);
    const part = featurePart(feature);
    const held = state.features.get(feature.name);
    if (held?.json === part.json) continue;
    use(state, held, -1);
    use(state, part, 1);
    for (const id of [...(held?.segments ?? []), ...part.segments]) touched.add(id);
    state.features.set(feature.name, part);
    events.push(featureUpdated(changes.features.get(feature.name)!.revision, part.json));
  }
  for (const name of candidates) {
    const held = state.features.get(name);
    if (present.has(name) || !held) continue;
    use(state, held, -1);
    for (const id of held.segments) touched.add(id);
    state.features.delete(name);
    events.push(featureRemoved(changes.features.get(name)!.revision, name, held.project));
  }
  for (const id of touched) {
    if ((state.uses.get(id) ?? 0) > 0) {
      // Still used: sent again only when it was read (changed, or newly used) and differs from what the client holds.
      const segment = segments.get(id);
      const json = segment && JSON.stringify(segment);
      if (json === undefined || state.segments.get(id) === json) continue;
      state.segments.set(id, json);
      events.push(segmentUpdated(changes.segments.get(id) ?? firstUse(id, loaded.features, changes), json));
    } else if (state.segments.delete(id)) {
      state.uses.delete(id);
      events.push(segmentRemoved(changes.to, id));
    }
  }
  state.version = changes.to;
  return events;
}

/** The revision of the earliest changed flag that uses a segment (the segment is sent for its sake). */
function firstUse(id: number, features: ClientFeature[], changes: RevisionChanges): bigint {
  let first = changes.to;
  for (const f of features) {
    const revision = changes.features.get(f.name)?.revision;
    if (revision !== undefined && revision < first && f.strategies.some((s) => s.segments?.includes(id))) first = revision;
  }
  return first;
}

/**
 * The segments whose use by a client of `scope` the changes may have altered: those changed or attached or detached
 * (the log records them), and those the changed flags' strategies hold (a flag archived, moved or with a strategy
 * switched off may have been their last user).
 */
async function segmentsToCheck(tx: EntityManager, scope: ClientFeatureScope, changes: RevisionChanges): Promise<number[]> {
  const ids = new Set(changes.segments.keys());
  for (const id of await readAttachedSegmentIds(tx, [...changes.features.keys()], scope.environment)) ids.add(id);
  return [...ids];
}

/**
 * The events that bring a client of `scope` whose state is unknown (a poll) from `changes.from` to `changes.to`,
 * reading through `tx` (snapshot `changes.to`): every changed flag it can see as it is now, with the segments it uses;
 * a removal for a changed flag it may have seen and no longer can; every segment the changes concern, as it is when a
 * flag it sees uses it, otherwise its removal.
 */
export async function eventsSince(tx: EntityManager, scope: ClientFeatureScope, changes: RevisionChanges): Promise<DeltaEvent[]> {
  const candidates: string[] = [];
  for (const [name, change] of changes.features) if (mayConcern(name, change, scope)) candidates.push(name);
  const loaded = await readClientFeatures(tx, scope, candidates);
  const segments = new Map<number, ClientSegment>(loaded.segments.map((s) => [s.id, s]));
  const check = (await segmentsToCheck(tx, scope, changes)).filter((id) => !segments.has(id));
  for (const s of await readUsedClientSegments(tx, scope, check)) segments.set(s.id, s);

  const events: DeltaEvent[] = [];
  const present = new Set<string>();
  for (const feature of loaded.features) {
    present.add(feature.name);
    events.push(featureUpdated(changes.features.get(feature.name)!.revision, JSON.stringify(feature)));
  }
  for (const name of candidates) {
    if (present.has(name)) continue;
    const change = changes.features.get(name)!;
    const project = visibleProject(change, scope);
    if (project !== undefined) events.push(featureRemoved(change.revision, name, project));
  }
  for (const segment of segments.values()) {
    events.push(segmentUpdated(changes.segments.get(segment.id) ?? firstUse(segment.id, loaded.features, changes), JSON.stringify(segment)));
  }
  for (const id of check) if (!segments.has(id)) events.push(segmentRemoved(changes.to, id));
  return events;
}

/**
 * The events that bring a client from `changes.from` to `state` (at `changes.to`) without reading anything: each
 * changed flag as `state` holds it (with the segments it uses) or its removal, each changed segment likewise.
 */
export function catchUp(state: DeltaState, scope: ClientFeatureScope, changes: RevisionChanges, check: readonly number[]): DeltaEvent[] {
  const events: DeltaEvent[] = [];
  const sent = new Set<number>();
  for (const [name, change] of changes.features) {
    const held = state.features.get(name);
    if (held && inEnvironment(change, scope)) {
      events.push(featureUpdated(change.revision, held.json));
      for (const id of held.segments) {
        const json = state.segments.get(id);
        if (json === undefined || sent.has(id)) continue;
        sent.add(id);
        events.push(segmentUpdated(changes.segments.get(id) ?? change.revision, json));
      }
    } else if (mayConcern(name, change, scope)) {
      const project = visibleProject(change, scope);
      if (project !== undefined) events.push(featureRemoved(change.revision, name, project));
    }
  }
  for (const id of check) {
    if (sent.has(id)) continue;
    const json = state.segments.get(id);
    events.push(json === undefined ? segmentRemoved(changes.to, id) : segmentUpdated(changes.segments.get(id) ?? changes.to, json));
  }
  return events;
}

const READ_SNAPSHOT = { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true, clear: true } as const;

/** What a client of one scope was sent by `advanceAll`: a delta (undefined: nothing it can see changed) or a whole state. */
export type Advance = { kind: 'delta'; body: string | undefined } | { kind: 'hydration'; body: string };

/**
 * Brings each state to the current revision, in one snapshot: the log's changes since each state's revision (read once
 * per distinct revision), then only the changed flags of each scope. A state the log no longer reaches is read whole
 * and replaced (`hydration`). States already current are left out of the answer.
 */
export async function advanceAll(em: EntityManager, targets: ReadonlyArray<{ scope: ClientFeatureScope; state: DeltaState }>): Promise<Map<DeltaState, Advance>> {
  return em.fork().transactional(async (tx) => {
    const version = BigInt(await readModelVersion(tx));
    const logs = new Map<bigint, RevisionChanges | undefined>();
    const out = new Map<DeltaState, Advance>();
    for (const { scope, state } of targets) {
      if (state.version >= version) continue;
      if (!logs.has(state.version)) logs.set(state.version, await readRevisionChanges(tx, state.version, version));
      const changes = logs.get(state.version);
      if (changes) {
        out.set(state, { kind: 'delta', body: deltaBody(await advanceState(tx, scope, state, changes)) });
        continue;
      }
      const fresh = stateOf(version, await readClientFeatures(tx, scope));
      Object.assign(state, fresh);
      out.set(state, { kind: 'hydration', body: hydrationBody(state) });
    }
    return out;
  }, READ_SNAPSHOT);
}

/** The delta body from revision `from` to `state`, or null when the log no longer reaches `from` (undefined: no events). */
export async function catchUpFrom(em: EntityManager, scope: ClientFeatureScope, state: DeltaState, from: bigint): Promise<string | undefined | null> {
  const to = state.version;
  const read = await em.fork().transactional(async (tx) => {
    const changes = await readRevisionChanges(tx, from, to);
    return changes && { changes, check: await segmentsToCheck(tx, scope, changes) };
  }, READ_SNAPSHOT);
  return read ? deltaBody(catchUp(state, scope, read.changes, read.check)) : null;
}

/** A poll's delta (`GET /api/client/delta`): from revision `from` to now; `body` null when the log no longer reaches `from`. */
export async function deltaSince(em: EntityManager, scope: ClientFeatureScope, from: bigint): Promise<{ version: bigint; body: string | undefined | null }> {
  return em.fork().transactional(async (tx) => {
    const version = BigInt(await readModelVersion(tx));
    const changes = await readRevisionChanges(tx, from, version);
    if (!changes) return { version, body: null };
    return { version, body: deltaBody(await eventsSince(tx, scope, changes)) };
  }, READ_SNAPSHOT);
}
