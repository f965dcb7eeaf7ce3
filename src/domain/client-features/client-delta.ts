import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { readModelVersion } from '../model-version.read-model';
import {
  readAttachedSegmentIds, readClientFeatures, readClientSegments, readUsedClientSegments, segmentIds, type ClientFeatureScope,
} from './client-features.read-model';
import type { ClientFeature, ClientSegment } from './client-feature.shapes';
import { readRevisionChanges, type FeatureChange, type RevisionChanges } from './revision-log.store';

/**
 * Deltas of the client API (issue 32), as the official SDKs read them (unleash-client 6.x on `/api/client/streaming`
 * and `/api/client/delta`): events which, applied in order, bring a client from one revision to another. `hydration`
 * holds a whole state; `feature-updated` a flag in the client shape, `feature-removed` its name and project,
 * `segment-updated` a segment, `segment-removed` its id. Each event's `eventId` is the revision (a value of
 * `model_version`) of the change it reflects, so events come in increasing order; a hydration's is the revision it is
 * the state of. Segments always go apart from the flags (the delta form has no inlined segments).
 *
 * This module decides which events a client is sent; their wire form is the SDK door's (src/rest/sdk/client-delta.wire.ts).
 * Flags and segments are held and sent in the caller's form `T`, made by its `DeltaEncoding` from what is read: the
 * door keeps the JSON text it sends, so a flag is encoded once per change however many clients it goes to. Forms are
 * compared with `===` to tell whether a client holds a flag or segment as it is now, so a form is a value that
 * compares by content (text).
 */
export interface DeltaEncoding<T> {
  feature(feature: ClientFeature): T;
  segment(segment: ClientSegment): T;
}

/** A flag as a client holds it: its form, its project and the segments its strategies use. */
export interface HeldFeature<T> {
  form: T;
  project: string;
  segments: readonly number[];
}

/** A flag as read, held in the form `encoding` makes. */
export function holdFeature<T>(encoding: DeltaEncoding<T>, feature: ClientFeature): HeldFeature<T> {
  return { form: encoding.feature(feature), project: feature.project, segments: segmentIds(feature) };
}

/** What a client holds at `version`: each flag as it was sent, and the segments it was sent (those its flags use). */
export interface DeltaState<T> {
  version: bigint;
  features: Map<string, HeldFeature<T>>;
  /** Segment id → its form as sent. */
  segments: Map<number, T>;
  /** Segment id → how many of the flags use it: a segment no flag uses any more is removed from the client. */
  uses: Map<number, number>;
}

export type DeltaEvent<T> =
  | { eventId: bigint; type: 'feature-updated'; feature: T }
  | { eventId: bigint; type: 'feature-removed'; featureName: string; project: string | null }
  | { eventId: bigint; type: 'segment-updated'; segment: T }
  | { eventId: bigint; type: 'segment-removed'; segmentId: number };

/** A whole state as one event: the flags by name, the segments by id. */
export interface HydrationEvent<T> {
  eventId: bigint;
  type: 'hydration';
  features: T[];
  segments: T[];
}

function countUses<T>(features: Iterable<HeldFeature<T>>): Map<number, number> {
  const uses = new Map<number, number>();
  for (const f of features) for (const id of f.segments) uses.set(id, (uses.get(id) ?? 0) + 1);
  return uses;
}

function use<T>(state: DeltaState<T>, held: HeldFeature<T> | undefined, by: 1 | -1): void {
  for (const id of held?.segments ?? []) state.uses.set(id, (state.uses.get(id) ?? 0) + by);
}

/** The state of a client that holds `features` and `segments` at `version`. */
export function deltaState<T>(version: bigint, features: Map<string, HeldFeature<T>>, segments: Map<number, T>): DeltaState<T> {
  return { version, features, segments, uses: countUses(features.values()) };
}

/** The state of a snapshot read at `version`. */
export function stateOf<T>(encoding: DeltaEncoding<T>, version: bigint, snapshot: { features: ClientFeature[]; segments: ClientSegment[] }): DeltaState<T> {
  const features = new Map(snapshot.features.map((f) => [f.name, holdFeature(encoding, f)]));
  return deltaState(version, features, new Map(snapshot.segments.map((s) => [s.id, encoding.segment(s)])));
}

/** The `hydration` event holding `state`, flags by name, segments by id. */
export function hydrationEvent<T>(state: DeltaState<T>): HydrationEvent<T> {
  const names = [...state.features.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const segments = [...state.segments.keys()].sort((a, b) => a - b);
  return {
    eventId: state.version, type: 'hydration',
    features: names.map((n) => state.features.get(n)!.form), segments: segments.map((id) => state.segments.get(id)!),
  };
}

/**
 * Within one revision: segments a flag may refer to first, removed segments last. A removed segment's revision is the
 * range's last: it is unused as of then (the revision that made it so is not recorded).
 */
const ORDER = { 'segment-updated': 0, 'feature-updated': 1, 'feature-removed': 2, 'segment-removed': 3 } as const;

/** Events in the order a client applies them (sorted in place). */
function inOrder<T>(events: DeltaEvent<T>[]): DeltaEvent<T>[] {
  return events.sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : ORDER[a.type] - ORDER[b.type]));
}

const featureUpdated = <T>(eventId: bigint, feature: T): DeltaEvent<T> => ({ eventId, type: 'feature-updated', feature });
const featureRemoved = <T>(eventId: bigint, featureName: string, project: string | undefined): DeltaEvent<T> => ({
  eventId, type: 'feature-removed', featureName, project: project ?? null,
});
const segmentUpdated = <T>(eventId: bigint, segment: T): DeltaEvent<T> => ({ eventId, type: 'segment-updated', segment });
const segmentRemoved = <T>(eventId: bigint, segmentId: number): DeltaEvent<T> => ({ eventId, type: 'segment-removed', segmentId });

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
async function advanceState<T>(tx: EntityManager, encoding: DeltaEncoding<T>, scope: ClientFeatureScope, state: DeltaState<T>, changes: RevisionChanges): Promise<DeltaEvent<T>[]> {
  const candidates: string[] = [];
  for (const [name, change] of changes.features) {
    if (mayConcern(name, change, scope) || (state.features.has(name) && inEnvironment(change, scope))) candidates.push(name);
  }
  const loaded = await readClientFeatures(tx, scope, candidates);
  const segments = new Map(loaded.segments.map((s) => [s.id, s]));
  const recheck = [...changes.segments.keys()].filter((id) => state.segments.has(id) && !segments.has(id));
  for (const s of await readClientSegments(tx, recheck)) segments.set(s.id, s);

  const events: DeltaEvent<T>[] = [];
  const present = new Set<string>();
  const touched = new Set<number>(recheck);
  for (const feature of loaded.features) {
    present.add(feature.name);
    const part = holdFeature(encoding, feature);
    const held = state.features.get(feature.name);
    if (held?.form === part.form) continue;
    use(state, held, -1);
    use(state, part, 1);
    for (const id of [...(held?.segments ?? []), ...part.segments]) touched.add(id);
    state.features.set(feature.name, part);
    events.push(featureUpdated(changes.features.get(feature.name)!.revision, part.form));
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
      const form = segment && encoding.segment(segment);
      if (form === undefined || state.segments.get(id) === form) continue;
      state.segments.set(id, form);
      events.push(segmentUpdated(changes.segments.get(id) ?? firstUse(id, loaded.features, changes), form));
    } else if (state.segments.delete(id)) {
      state.uses.delete(id);
      events.push(segmentRemoved(changes.to, id));
    }
  }
  state.version = changes.to;
  return inOrder(events);
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
async function eventsSince<T>(tx: EntityManager, encoding: DeltaEncoding<T>, scope: ClientFeatureScope, changes: RevisionChanges): Promise<DeltaEvent<T>[]> {
  const candidates: string[] = [];
  for (const [name, change] of changes.features) if (mayConcern(name, change, scope)) candidates.push(name);
  const loaded = await readClientFeatures(tx, scope, candidates);
  const segments = new Map<number, ClientSegment>(loaded.segments.map((s) => [s.id, s]));
  const check = (await segmentsToCheck(tx, scope, changes)).filter((id) => !segments.has(id));
  for (const s of await readUsedClientSegments(tx, scope, check)) segments.set(s.id, s);

  const events: DeltaEvent<T>[] = [];
  const present = new Set<string>();
  for (const feature of loaded.features) {
    present.add(feature.name);
    events.push(featureUpdated(changes.features.get(feature.name)!.revision, encoding.feature(feature)));
  }
  for (const name of candidates) {
    if (present.has(name)) continue;
    const change = changes.features.get(name)!;
    const project = visibleProject(change, scope);
    if (project !== undefined) events.push(featureRemoved(change.revision, name, project));
  }
  for (const segment of segments.values()) {
    events.push(segmentUpdated(changes.segments.get(segment.id) ?? firstUse(segment.id, loaded.features, changes), encoding.segment(segment)));
  }
  for (const id of check) if (!segments.has(id)) events.push(segmentRemoved(changes.to, id));
  return inOrder(events);
}

/**
 * The events that bring a client from `changes.from` to `state` (at `changes.to`) without reading anything: each
 * changed flag as `state` holds it (with the segments it uses) or its removal, each changed segment likewise.
 */
function catchUp<T>(state: DeltaState<T>, scope: ClientFeatureScope, changes: RevisionChanges, check: readonly number[]): DeltaEvent<T>[] {
  const events: DeltaEvent<T>[] = [];
  const sent = new Set<number>();
  for (const [name, change] of changes.features) {
    const held = state.features.get(name);
    if (held && inEnvironment(change, scope)) {
      events.push(featureUpdated(change.revision, held.form));
      for (const id of held.segments) {
        const form = state.segments.get(id);
        if (form === undefined || sent.has(id)) continue;
        sent.add(id);
        events.push(segmentUpdated(changes.segments.get(id) ?? change.revision, form));
      }
    } else if (mayConcern(name, change, scope)) {
      const project = visibleProject(change, scope);
      if (project !== undefined) events.push(featureRemoved(change.revision, name, project));
    }
  }
  for (const id of check) {
    if (sent.has(id)) continue;
    const form = state.segments.get(id);
    events.push(form === undefined ? segmentRemoved(changes.to, id) : segmentUpdated(changes.segments.get(id) ?? changes.to, form));
  }
  return inOrder(events);
}

const READ_SNAPSHOT = { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true, clear: true } as const;

/**
 * What a client of one scope is sent by `advanceAll`: the events of a delta, in order (none: nothing it can see
 * changed), or its whole new state.
 */
export type Advance<T> = { kind: 'delta'; events: DeltaEvent<T>[] } | { kind: 'hydration'; event: HydrationEvent<T> };

/**
 * Brings each state to the current revision, in one snapshot: the log's changes since each state's revision (read once
 * per distinct revision), then only the changed flags of each scope. A state the log no longer reaches is read whole
 * and replaced (`hydration`). States already current are left out of the answer.
 */
export async function advanceAll<T>(em: EntityManager, encoding: DeltaEncoding<T>, targets: ReadonlyArray<{ scope: ClientFeatureScope; state: DeltaState<T> }>): Promise<Map<DeltaState<T>, Advance<T>>> {
  return em.fork().transactional(async (tx) => {
    const version = BigInt(await readModelVersion(tx));
    const logs = new Map<bigint, RevisionChanges | undefined>();
    const out = new Map<DeltaState<T>, Advance<T>>();
    for (const { scope, state } of targets) {
      if (state.version >= version) continue;
      if (!logs.has(state.version)) logs.set(state.version, await readRevisionChanges(tx, state.version, version));
      const changes = logs.get(state.version);
      if (changes) {
        out.set(state, { kind: 'delta', events: await advanceState(tx, encoding, scope, state, changes) });
        continue;
      }
      const fresh = stateOf(encoding, version, await readClientFeatures(tx, scope));
      Object.assign(state, fresh);
      out.set(state, { kind: 'hydration', event: hydrationEvent(state) });
    }
    return out;
  }, READ_SNAPSHOT);
}

/** The events, in order, from revision `from` to `state`; null when the log no longer reaches `from`. */
export async function catchUpFrom<T>(em: EntityManager, scope: ClientFeatureScope, state: DeltaState<T>, from: bigint): Promise<DeltaEvent<T>[] | null> {
  const to = state.version;
  const read = await em.fork().transactional(async (tx) => {
    const changes = await readRevisionChanges(tx, from, to);
    return changes && { changes, check: await segmentsToCheck(tx, scope, changes) };
  }, READ_SNAPSHOT);
  return read ? catchUp(state, scope, read.changes, read.check) : null;
}

/**
 * A poll's delta (`GET /api/client/delta`): the events, in order, from revision `from` to now (`version`); `events`
 * null when the log no longer reaches `from`.
 */
export async function deltaSince<T>(em: EntityManager, encoding: DeltaEncoding<T>, scope: ClientFeatureScope, from: bigint): Promise<{ version: bigint; events: DeltaEvent<T>[] | null }> {
  return em.fork().transactional(async (tx) => {
    const version = BigInt(await readModelVersion(tx));
    const changes = await readRevisionChanges(tx, from, version);
    if (!changes) return { version, events: null };
    return { version, events: await eventsSince(tx, encoding, scope, changes) };
  }, READ_SNAPSHOT);
}
