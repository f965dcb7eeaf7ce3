import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deltaSince } from '../../domain/client-features/client-delta';
import { answerKey, type ClientAnswer, type ClientAnswerKey } from './client-answers';
import { DELTA_JSON, deltaBody } from './client-delta.wire';

/** Most deltas kept: one per scope and revision polled from (pollers of a scope mostly stand at the same revision). */
const MAX_KEPT = 256;
/** Characters of the scope's digest in the ETag (base64url: a `-gzip` suffix is told apart by the length). */
const SCOPE_TAG_LENGTH = 12;

/** What a delta poll sends: nothing new (304), a delta body, or a hydration of the whole answer; with the ETag of the revision reached. */
export type DeltaOutcome =
  | { kind: 'unchanged'; etag: string }
  | { kind: 'delta'; etag: string; body: Buffer }
  | { kind: 'hydration'; etag: string; answer: ClientAnswer };

type Delta = { version: bigint; body: string | undefined | null };

/**
 * `GET /api/client/delta` for SDKs that poll deltas (unleash-client 6.x, `experimentalMode: {type: 'polling', format:
 * 'delta'}`): without a revision, a `hydration` of the scope with its revision as ETag; with one (`If-None-Match`, the
 * ETag the client was last sent), the events since that revision, or a 304 when nothing it can see changed; a
 * hydration again when the log no longer reaches it or the ETag is of another scope.
 *
 * The ETag is `"<revision>:<scope>"`, the scope a digest of the query as resolved against the token. A 304 costs the
 * `model_version` read a `/api/client/features` poll costs; a delta is read once per scope, revision polled from and
 * current revision, however many pollers ask.
 */
export class ClientDeltaPolls {
  private readonly kept = new Map<string, { version: bigint; delta: Promise<Delta> }>();

  constructor(
    private readonly em: EntityManager,
    /** The current revision (a value read after the call). */
    private readonly current: () => Promise<string>,
    /** The scope's whole answer at a revision or later. */
    private readonly answer: (key: ClientAnswerKey, version: string) => Promise<ClientAnswer>,
  ) {}

  /** Forgets the deltas kept (the service is idle). */
  clear(): void {
    this.kept.clear();
  }

  /** What to send: a hydration (`answer`), a delta body, or nothing new (304); with the ETag of the revision reached. */
  async poll(req: IncomingMessage, requested: ClientAnswerKey): Promise<DeltaOutcome> {
    const { key, cacheKey, scopeTag, etag } = deltaKey(requested);
    const version = BigInt(await this.current());
    const from = revisionOf(req.headers['if-none-match'], scopeTag);
    if (from === version) return { kind: 'unchanged', etag: etag(version) };
    if (from !== undefined && from < version) {
      const delta = await this.deltaOf(key, cacheKey, from, version);
      if (delta.body === undefined) return { kind: 'unchanged', etag: etag(from) };
      if (delta.body !== null) return { kind: 'delta', etag: etag(delta.version), body: Buffer.from(delta.body) };
    }
    const answer = await this.answer(key, version.toString());
    return { kind: 'hydration', etag: etag(answer.version), answer };
  }

  /**
   * What to send from an answer kept from before the database went away (src/domain/last-known.ts): nothing new
   * when the client holds its revision, else its hydration.
   */
  fromAnswer(req: IncomingMessage, requested: ClientAnswerKey, answer: ClientAnswer): DeltaOutcome {
    const { scopeTag, etag } = deltaKey(requested);
    return revisionOf(req.headers['if-none-match'], scopeTag) === BigInt(answer.version)
      ? { kind: 'unchanged', etag: etag(answer.version) }
      : { kind: 'hydration', etag: etag(answer.version), answer };
  }

  private deltaOf(key: ClientAnswerKey, cacheKey: string, from: bigint, version: bigint): Promise<Delta> {
    const id = `${cacheKey}\n${from}`;
    const hit = this.kept.get(id);
    if (hit && hit.version >= version) return hit.delta;
    const delta = deltaSince(this.em, DELTA_JSON, key.scope, from).then(({ version: to, events }): Delta => ({ version: to, body: events && deltaBody(events) }));
    this.kept.delete(id);
    this.kept.set(id, { version, delta });
    delta.catch(() => { if (this.kept.get(id)?.delta === delta) this.kept.delete(id); });
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return delta;
  }
}

/** The delta form of a scope: its answers are in the `separate` segment mode; its ETags name the revision and the scope. */
export function deltaKey(requested: ClientAnswerKey) {
  const key: ClientAnswerKey = { scope: requested.scope, mode: 'separate' };
  const cacheKey = answerKey(key);
  const scopeTag = createHash('sha256').update(cacheKey).digest('base64url').slice(0, SCOPE_TAG_LENGTH);
  return { key, cacheKey, scopeTag, etag: (revision: bigint | string) => `"${revision}:${scopeTag}"` };
}

/** The revision an `If-None-Match` of ours names for this scope (undefined for anything else). */
function revisionOf(header: string | undefined, scopeTag: string): bigint | undefined {
  if (!header) return undefined;
  const match = /^(?:W\/)?"(\d{1,19}):([A-Za-z0-9_-]{12})(?:-gzip)?"$/.exec(header.trim());
  return match && match[2] === scopeTag ? BigInt(match[1]) : undefined;
}
