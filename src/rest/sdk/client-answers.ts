import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HeldFeature } from '../../domain/client-features/client-delta';
import type { Kept } from '../../domain/last-known';
import {
  loadClientFeatures, segmentIds, type ClientFeatureScope, type ClientFeatureSnapshot,
} from '../../domain/client-features/client-features.read-model';
import type { ClientFeature, ClientSegment, ClientStrategy } from '../../domain/client-features/client-feature.shapes';
import { hydrationJson } from './client-delta.wire';

/**
 * The serialized client-API answer of one scope at one `model_version`, made from the domain's snapshot of it
 * (loadClientFeatures, src/domain/client-features/client-features.read-model.ts): the bytes of
 * `GET /api/client/features`, its ETag (a digest of those bytes, so an answer that a change elsewhere left as it was
 * keeps its ETag and SDKs keep getting 304), and the single features for `GET /api/client/features/:name`.
 */
export interface ClientAnswer extends Representation {
  version: string;
  feature(name: string): Representation | undefined;
  /** Each feature's JSON (the segment mode's shape), project and segments, in name order. */
  features: ReadonlyMap<string, HeldFeature<string>>;
  /** The segments the features use, by id (sent apart in the `separate` mode). */
  segments: readonly ClientSegment[];
  /** The same state as one delta `hydration` event (issue 32), built on first use, then kept. */
  hydration(): Representation;
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

/** Serializes a snapshot as the answer for `key`; each feature is serialized once and reused by the single-feature route. */
export function serializeAnswer(snapshot: ClientFeatureSnapshot, key: ClientAnswerKey): ClientAnswer {
  const segments = new Map(snapshot.segments.map((s) => [s.id, s]));
  const features = new Map<string, HeldFeature<string>>();
  const parts: string[] = [];
  for (const feature of snapshot.features) {
    const shaped: ClientFeature = key.mode === 'inline' ? { ...feature, strategies: feature.strategies.map((s) => inlineSegments(s, segments)) } : feature;
    const json = JSON.stringify(shaped);
    features.set(feature.name, { form: json, project: feature.project, segments: segmentIds(feature) });
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
        const json = features.get(name)?.form;
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
  /** When a read of `model_version` last found this answer current. */
  confirmedAt: number;
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
      entry.confirmedAt = Date.now();
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

  /**
   * The last answer built for `key`, whatever its version, with when it was last found current: what the SDK doors
   * serve while the database is away (src/domain/last-known.ts).
   */
  kept(key: ClientAnswerKey, cacheKey = answerKey(key)): Kept<ClientAnswer> | undefined {
    const entry = this.entries.get(cacheKey);
    return entry && { value: entry.answer, confirmedAt: entry.confirmedAt };
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
    this.entries.set(cacheKey, { answer, cost, confirmedAt: Date.now() });
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
