import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ModelVersionSignal } from '../events/event-hub';
import { loadClientFeatures, type ClientFeature, type ClientFeatureScope, type ClientFeatureSnapshot, type ClientSegment, type ClientStrategy } from './client-features.read-model';

/**
 * The serialized client-API answer of one scope at one `model_version`: the bytes of `GET /api/client/features`, its
 * ETag (a digest of those bytes, so an answer that a change elsewhere left as it was keeps its ETag and SDKs keep
 * getting 304), and the single features for `GET /api/client/features/:name`.
 */
export interface ClientAnswer extends Representation {
  version: string;
  feature(name: string): Representation | undefined;
  /** Each feature's JSON (the segment mode's shape) and project, in name order. */
  features: ReadonlyMap<string, FeaturePart>;
  /** The segments the features use, by id (sent apart in the `separate` mode). */
  segments: readonly ClientSegment[];
  /** The same state as one delta `hydration` event (issue 32), built on first use, then kept. */
  hydration(): Representation;
}

export interface FeaturePart {
  json: string;
  project: string;
  /** The segments its strategies use. */
  segments: number[];
}

/** The segments a flag's strategies use. */
export function segmentIds(feature: ClientFeature): number[] {
  const ids = new Set<number>();
  for (const s of feature.strategies) for (const id of s.segments ?? []) ids.add(id);
  return [...ids];
}

/** Bytes with their ETag, and the same bytes gzipped (made on first use, then kept: compressed once per version). */
export interface Representation {
  body: Buffer;
  etag: string;
  gzipped(): Promise<Buffer>;
}

export function representation(body: Buffer): Representation {
  let gz: Promise<Buffer> | undefined;
  return {
    body,
    etag: digest(body),
    gzipped() {
      gz ??= new Promise<Buffer>((resolve, reject) => gzip(body, (err, out) => (err ? reject(err) : resolve(out))));
      return gz;
    },
  };
}

/** How strategies refer to segments: by id with the segments sent once (`Unleash-Client-Spec` ≥ 4.2.0), or inlined. */
export type SegmentMode = 'separate' | 'inline';

/** `query` of the answer: what the SDK asked for, as resolved against its token (Unleash echoes it the same way). */
export interface ClientQueryEcho {
  tag?: Array<[string, string]>;
  project?: string[];
  namePrefix?: string;
  environment: string;
  inlineSegmentConstraints: boolean;
}

export interface ClientAnswerKey {
  scope: ClientFeatureScope;
  mode: SegmentMode;
}

/** The cache key of a scope and segment mode: equal for equal (normalised) scopes. */
export function answerKey({ scope, mode }: ClientAnswerKey): string {
  return JSON.stringify([scope.environment, scope.projects, scope.namePrefix ?? '', scope.tags, mode]);
}

export function queryEcho({ scope, mode }: ClientAnswerKey): ClientQueryEcho {
  const out: Partial<ClientQueryEcho> = {};
  if (scope.tags.length > 0) out.tag = scope.tags.map(([t, v]) => [t, v]);
  if (scope.projects !== '*') out.project = [...scope.projects];
  if (scope.namePrefix) out.namePrefix = scope.namePrefix;
  out.environment = scope.environment;
  out.inlineSegmentConstraints = mode === 'inline';
  return out as ClientQueryEcho;
}

const digest = (bytes: Buffer | string) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** Strategies with segment constraints appended to their own (for SDKs that do not know segments). */
function inlineSegments(strategy: ClientStrategy, segments: ReadonlyMap<number, ClientSegment>): ClientStrategy {
  if (!strategy.segments) return strategy;
  const { segments: ids, ...rest } = strategy;
  const constraints = [...rest.constraints];
  for (const id of ids) constraints.push(...(segments.get(id)?.constraints ?? []));
  return { ...rest, constraints };
}

/** A delta body of one `hydration` event: the whole state of a scope at `revision` (features and segments as JSON arrays). */
export function hydrationJson(revision: string, featuresJson: string, segmentsJson: string): string {
  return `{"events":[{"eventId":${revision},"type":"hydration","features":${featuresJson},"segments":${segmentsJson}}]}`;
}

/** Serializes a snapshot as the answer for `key`; each feature is serialized once and reused by the single-feature route. */
export function serializeAnswer(snapshot: ClientFeatureSnapshot, key: ClientAnswerKey): ClientAnswer {
  const segments = new Map(snapshot.segments.map((s) => [s.id, s]));
  const features = new Map<string, FeaturePart>();
  const parts: string[] = [];
  for (const feature of snapshot.features) {
    const shaped: ClientFeature = key.mode === 'inline' ? { ...feature, strategies: feature.strategies.map((s) => inlineSegments(s, segments)) } : feature;
    const json = JSON.stringify(shaped);
    features.set(feature.name, { json, project: feature.project, segments: segmentIds(feature) });
    parts.push(json);
  }
  const featuresJson = `[${parts.join(',')}]`;
  const tail = key.mode === 'separate' ? `,"segments":${JSON.stringify(snapshot.segments)}` : '';
  const body = Buffer.from(`{"version":2,"features":${featuresJson},"query":${JSON.stringify(queryEcho(key))}${tail}}`);
  const single = new Map<string, Representation>();
  let hydration: Representation | undefined;
  return {
    version: snapshot.version,
    ...representation(body),
    features,
    segments: snapshot.segments,
    feature(name) {
      let hit = single.get(name);
      if (!hit) {
        const json = features.get(name)?.json;
        if (json === undefined) return undefined;
        hit = representation(Buffer.from(json));
        single.set(name, hit);
      }
      return hit;
    },
    hydration() {
      hydration ??= representation(Buffer.from(hydrationJson(snapshot.version, featuresJson, JSON.stringify(snapshot.segments))));
      return hydration;
    },
  };
}

/** How long a read of `model_version` is trusted while the counter is watched, however quiet the channel stays. */
export const WATCHED_VERSION_MAX_AGE_MS = 1_000;

/**
 * Reads `model_version` with at most one read in flight: requests that ask while one is under way share the next read,
 * issued as soon as that one ends. Each request thus gets a value read after it asked, so it sees every change committed
 * before it asked (joining the read already under way could miss one), and under load the counter costs one statement
 * per database round trip, however many requests arrive meanwhile.
 *
 * With a `signal` that is watched (PostgreSQL, the listener up: see ModelVersionSignal), a value read while watching
 * is given without reading again until the signal moves: this instance's own commits move it as they commit, and any
 * other transaction that moves the counter moves it when its notification arrives, a fraction of a millisecond after
 * its commit on a healthy connection. So an SDK poll costs no statement while nothing changes; a change made by another
 * instance or by hand is served from the first request after its notification. A notification lost without the
 * connection failing visibly is bounded by `maxAgeMs`: a trusted value is read again after that long.
 */
export class VersionReader {
  private inFlight = false;
  private next: { promise: Promise<string>; resolve: (v: string) => void; reject: (e: unknown) => void } | undefined;
  private known: { version: string; generation: number; readAt: number } | undefined;

  constructor(
    private readonly read: () => Promise<string>,
    private readonly signal?: ModelVersionSignal,
    private readonly maxAgeMs = WATCHED_VERSION_MAX_AGE_MS,
    /** The clock ages are measured on (a test moves its own). */
    private readonly now: () => number = Date.now,
  ) {}

  current(): Promise<string> {
    const known = this.known;
    if (known && this.signal?.watching && known.generation === this.signal.generation && this.now() - known.readAt < this.maxAgeMs) {
      return Promise.resolve(known.version);
    }
    if (this.next) return this.next.promise;
    let resolve!: (v: string) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<string>((res, rej) => { resolve = res; reject = rej; });
    this.next = { promise, resolve, reject };
    if (!this.inFlight) this.launch();
    return promise;
  }

  private launch(): void {
    const batch = this.next!;
    this.next = undefined;
    this.inFlight = true;
    // What the signal said as the read was issued: the value is trusted only if nothing moved since (a notification
    // that arrives while the read is under way may be of a commit the read did not see).
    const watched = this.signal?.watching ? this.signal.generation : undefined;
    const readAt = this.now();
    this.read().then((version) => {
      if (watched !== undefined && this.signal!.watching && this.signal!.generation === watched) this.known = { version, generation: watched, readAt };
      batch.resolve(version);
    }, batch.reject).finally(() => {
      this.inFlight = false;
      if (this.next) this.launch();
    });
  }
}

export interface AnswerCacheLimits {
  /** Most answers kept (one per scope and segment mode). */
  maxEntries: number;
  /** Most bytes of answers kept (each counted about three times its body: the bytes, the features' text). */
  maxBytes: number;
}

export const DEFAULT_ANSWER_CACHE_LIMITS: AnswerCacheLimits = { maxEntries: 256, maxBytes: 128 * 1024 * 1024 };

interface Entry {
  answer: ClientAnswer;
  cost: number;
}

/**
 * Client-API answers per scope, least recently used first out, each valid while `model_version` has not moved. One app
 * instance keeps one; instances do not share answers but all compare against the same counter, so none serves stale
 * data. Concurrent requests for an answer being built wait for that build instead of starting their own.
 */
export class ClientAnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<ClientAnswer>>();
  private bytes = 0;
  /** Answers built (a test and bench figure: how often the cache missed). */
  builds = 0;

  constructor(private readonly em: () => EntityManager, private readonly limits: AnswerCacheLimits = DEFAULT_ANSWER_CACHE_LIMITS) {}

  /** The answer for `key` at `version` (read before this call) or newer. */
  async get(key: ClientAnswerKey, version: string, cacheKey = answerKey(key)): Promise<ClientAnswer> {
    const entry = this.entries.get(cacheKey);
    if (entry && entry.answer.version === version) {
      this.entries.delete(cacheKey);
      this.entries.set(cacheKey, entry);
      return entry.answer;
    }
    const pending = this.building.get(cacheKey);
    if (pending) {
      const answer = await pending;
      if (BigInt(answer.version) >= BigInt(version)) return answer;
    }
    return this.build(key, cacheKey, entry?.answer);
  }

  private build(key: ClientAnswerKey, cacheKey: string, previous: ClientAnswer | undefined): Promise<ClientAnswer> {
    const running = (async () => {
      this.builds += 1;
      const snapshot = await loadClientFeatures(this.em(), key.scope);
      let answer = serializeAnswer(snapshot, key);
      // The same bytes as before (a change elsewhere): keep the old object's parts (its gzip and single features).
      if (previous && previous.etag === answer.etag) answer = { ...previous, version: answer.version };
      this.store(cacheKey, answer);
      return answer;
    })();
    this.building.set(cacheKey, running);
    const done = () => { if (this.building.get(cacheKey) === running) this.building.delete(cacheKey); };
    running.then(done, done);
    return running;
  }

  /** Forgets every answer (the service is idle: src/idle-gc.ts); answers being built are still stored when done. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private store(cacheKey: string, answer: ClientAnswer): void {
    const old = this.entries.get(cacheKey);
    if (old) {
      // A build that finished after a newer one keeps the newer answer.
      if (BigInt(old.answer.version) > BigInt(answer.version)) return;
      this.bytes -= old.cost;
      this.entries.delete(cacheKey);
    }
    const cost = answer.body.length * 3;
    this.entries.set(cacheKey, { answer, cost });
    this.bytes += cost;
    while (this.entries.size > this.limits.maxEntries || (this.bytes > this.limits.maxBytes && this.entries.size > 1)) {
      const [oldest, evicted] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      this.bytes -= evicted.cost;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
