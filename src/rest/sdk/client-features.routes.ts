import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import accepts from 'accepts';
import { Router, type Request, type Response } from 'express';
import semverGte from 'semver/functions/gte';
import semverValid from 'semver/functions/valid';
import { tokenReadScope, type Principal } from '../../domain/access/principal';
import type { ClientFeatureScope } from '../../domain/client-features/client-features.read-model';
import { VersionReader } from '../../domain/client-features/version-reader';
import { NotFoundError, TooManyRequestsError, ValidationError } from '../../domain/errors';
import { readModelVersion } from '../../domain/model-version.read-model';
import { appendVary } from '../cors';
import { sendError } from '../errors';
import {
  ClientAnswerCache, DEFAULT_ANSWER_CACHE_LIMITS, representation,
  type AnswerCacheLimits, type ClientAnswer, type ClientAnswerKey, type Representation, type SegmentMode,
} from './client-answers';
import { ClientDeltaPolls, deltaKey } from './client-delta-polls';
import { ClientStreams, DEFAULT_STREAM_OPTIONS, type ClientStreamOptions } from './client-streaming';
import { ifNoneMatchNames } from './etag';
import { currentOrKept, type LastKnownPolicy, type Served, type StaleDoor } from '../../domain/last-known';
import { markStale } from './stale';
import { sdkPrincipal, type SdkDeps } from './sdk-deps';

/** The first client specification with segments sent once and referenced by id (Unleash's threshold). */
const SEGMENTS_SPEC = '4.2.0';
const MAX_VALUES = 100;
const MAX_LENGTH = 200;

export interface ClientFeaturesOptions {
  cache?: AnswerCacheLimits;
  streaming?: Partial<ClientStreamOptions>;
}

/** A parsed query string, as Express's default ("simple", node:querystring) parser gives it. */
type Query = Record<string, unknown>;

/** A query parameter's values (`?tag=a&tag=b`), each non-empty, at most MAX_VALUES of MAX_LENGTH characters. */
function many(query: Query, name: string): string[] {
  const raw = query[name];
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length > MAX_VALUES) throw ValidationError.single(name, `\`${name}\` may be given at most ${MAX_VALUES} times.`);
  for (const v of values) {
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX_LENGTH) {
      throw ValidationError.single(name, `Each \`${name}\` must be text of 1 to ${MAX_LENGTH} characters.`);
    }
  }
  return values as string[];
}

/** A query parameter given at most once (empty counts as absent). */
export function one(query: Query, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw ValidationError.single(name, `\`${name}\` may be given only once.`);
  if (raw.length > MAX_LENGTH) throw ValidationError.single(name, `\`${name}\` must be at most ${MAX_LENGTH} characters.`);
  return raw;
}

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * What a request may see, as Unleash v5.8 resolves it, with one difference: the query narrows the token's scope
 * instead of replacing it.
 * - Environment: a client token's own; an admin token (`*`) reads `?environment=`, by default `default`.
 * - Projects: the token's (`*`: all); `?project=` (repeatable) narrows them to those named that the token has.
 * - `?namePrefix=` and `?tag=type:value` (repeatable; any of the tags) narrow further.
 * - Segments: sent once and referenced by id when `Unleash-Client-Spec` is a version ≥ 4.2.0, otherwise inlined into
 *   each strategy's constraints.
 */
export function resolveClientQuery(query: Query, specHeader: string | string[] | undefined, principal: Principal): ClientAnswerKey {
  const { environment, projects } = tokenReadScope(principal, one(query, 'environment'));
  return { scope: narrowScope(query, environment, projects), mode: segmentMode(specHeader) };
}

/** The scope of a token that reads `environment` and `tokenProjects`, narrowed by the query (see resolveClientQuery). */
export function narrowScope(query: Query, environment: string, tokenProjects: readonly string[] | '*'): ClientFeatureScope {
  const requested = many(query, 'project');
  let projects: string[] | '*';
  if (tokenProjects === '*') projects = requested.length > 0 ? sortedUnique(requested) : '*';
  else projects = sortedUnique(requested.length > 0 ? requested.filter((p) => tokenProjects.includes(p)) : tokenProjects);
  const tags = many(query, 'tag').map((tag) => {
    const colon = tag.indexOf(':');
    if (colon <= 0 || colon === tag.length - 1) throw ValidationError.single('tag', `A tag is \`type:value\`; "${tag}" is not.`);
    return [tag.slice(0, colon), tag.slice(colon + 1)] as const;
  });
  const uniqueTags = new Map(tags.map((t) => [JSON.stringify(t), t]));
  return {
    environment,
    projects,
    namePrefix: one(query, 'namePrefix'),
    tags: [...uniqueTags.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t),
  };
}

const clientQuery = (req: Request, principal: Principal) => resolveClientQuery(req.query, req.headers['unleash-client-spec'], principal);

export function segmentMode(header: string | string[] | undefined): SegmentMode {
  const version = typeof header === 'string' ? semverValid(header.trim()) : null;
  return version && semverGte(version, SEGMENTS_SPEC) ? 'separate' : 'inline';
}

/** The ETag of the gzipped bytes: a representation of its own (RFC 9110 §8.8.3), so it is told apart. */
const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

/** Answers above this size go out gzipped to clients that accept it (the Node SDK does); smaller ones are not worth it. */
const GZIP_FROM_BYTES = 1024;

/**
 * The cached bytes, or a 304 when `If-None-Match` names them. Compressed once per version (not per request, as a
 * compression middleware would), so a poll of a large answer costs neither serialization nor compression.
 */
async function reply(req: IncomingMessage, res: ServerResponse, answer: Representation, etag = answer.etag): Promise<void> {
  const compress = answer.body.length >= GZIP_FROM_BYTES && accepts(req).encoding('gzip', 'identity') === 'gzip';
  if (answer.body.length >= GZIP_FROM_BYTES) appendVary(res, 'Accept-Encoding');
  res.setHeader('ETag', compress ? gzipTag(etag) : etag);
  if (ifNoneMatchNames(req.headers['if-none-match'], etag, gzipTag(etag))) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = compress ? await answer.gzipped() : answer.body;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (compress) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * `GET /api/client/features`, `GET /api/client/features/:name`, `GET /api/client/delta` and `GET /api/client/streaming`
 * (issue 14 parts 1 and 4, issue 32): what backend SDKs read, as Unleash v5.8 answers them, from a per-app cache of
 * serialized answers (src/rest/sdk/client-answers.ts).
 *
 * A request costs one `model_version` read (shared by the requests of one database round trip) while nothing changed:
 * the cached bytes go out as they are, or a 304 when `If-None-Match` names their ETag. A change moves the counter (its
 * triggers cover every write path), so the next request rebuilds that scope's answer; the ETag is a digest of the
 * bytes, so an answer the change did not touch keeps its ETag.
 *
 * One door per app, with one handler per URL: its router serves every client-API read through Express, and the fast
 * path serves the SDKs' polls (the hottest path of the service) through the same `poll` and `deltaPoll`, without
 * Express (see src/rest/sdk/fast-paths.ts).
 */
export class ClientFeaturesDoor {
  private readonly versions: VersionReader;
  private readonly cache: ClientAnswerCache;
  private readonly streams: ClientStreams;
  private readonly deltas: ClientDeltaPolls;
  private readonly lastKnown: LastKnownPolicy | undefined;

  constructor(deps: SdkDeps, options: ClientFeaturesOptions = {}) {
    this.lastKnown = deps.lastKnown;
    this.versions = deps.modelVersions ?? new VersionReader(() => readModelVersion(deps.orm.em.fork()), deps.eventHub.modelVersion);
    this.cache = new ClientAnswerCache(() => deps.orm.em.fork(), options.cache ?? DEFAULT_ANSWER_CACHE_LIMITS);
    this.streams = new ClientStreams(deps, this.cache, this.versions, { ...DEFAULT_STREAM_OPTIONS, ...options.streaming });
    this.deltas = new ClientDeltaPolls(deps.orm.em, () => this.versions.current(), (key, version) => this.cache.get(key, version));
  }

  /**
   * Forgets the cached answers (the service is idle: src/idle-gc.ts); the next poll builds its answer again. Kept
   * while the database is away: they are what the SDKs are served meanwhile.
   */
  forgetAnswers(): void {
    if (this.lastKnown && !this.lastKnown.availability.reachable) return;
    this.cache.clear();
    this.deltas.clear();
  }

  /** The answer of `key` as of now: every change committed before this call is in it. */
  async answer(key: ClientAnswerKey): Promise<ClientAnswer> {
    return this.cache.get(key, await this.versions.current());
  }

  /** The answer of `key` as of now, or while the database is away the last one built for it (src/domain/last-known.ts). */
  private served(key: ClientAnswerKey, door: StaleDoor): Promise<Served<ClientAnswer>> {
    return currentOrKept(this.lastKnown, door, () => this.answer(key), () => this.cache.kept(key));
  }

  /** `GET /api/client/features`: the answer of `key`, or a 304. */
  async poll(req: IncomingMessage, res: ServerResponse, key: ClientAnswerKey): Promise<void> {
    const { value, staleSince } = await this.served(key, 'client_features');
    markStale(res, staleSince);
    await reply(req, res, value);
  }

  /** `GET /api/client/features/:name`: one feature of the answer of `key`, or a 304; 404 when the answer has none of that name. */
  async featurePoll(req: IncomingMessage, res: ServerResponse, key: ClientAnswerKey, name: string): Promise<void> {
    const { value, staleSince } = await this.served(key, 'client_features');
    const feature = value.feature(name);
    if (!feature) throw new NotFoundError(`Could not find feature toggle ${name}`);
    markStale(res, staleSince);
    await reply(req, res, feature);
  }

  /** `GET /api/client/delta`: a hydration, the events since the client's revision, or a 304 (src/rest/sdk/client-delta-polls.ts). */
  async deltaPoll(req: IncomingMessage, res: ServerResponse, key: ClientAnswerKey): Promise<void> {
    const { value: outcome, staleSince } = await currentOrKept(this.lastKnown, 'client_delta', () => this.deltas.poll(req, key), () => {
      const kept = this.cache.kept(deltaKey(key).key);
      return kept && { value: this.deltas.fromAnswer(req, key, kept.value), confirmedAt: kept.confirmedAt };
    });
    markStale(res, staleSince);
    if (outcome.kind === 'unchanged') {
      res.setHeader('ETag', outcome.etag);
      res.statusCode = 304;
      res.end();
      return;
    }
    await reply(req, res, outcome.kind === 'delta' ? representation(outcome.body) : outcome.answer.hydration(), outcome.etag);
  }

  /** `GET /api/client/streaming`: server-sent events (src/rest/sdk/client-streaming.ts); a 429 with `Retry-After` over the limit. */
  async stream(req: Request, res: Response, key: ClientAnswerKey): Promise<void> {
    try {
      await this.streams.connect(req, res, key);
    } catch (err) {
      if (!(err instanceof TooManyRequestsError)) throw err;
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      sendError(res, err);
    }
  }

  /**
   * Express's routes of the client API's reads: each resolves the request's query against its token and calls the one
   * handler of its URL above, which the fast path (src/rest/sdk/fast-paths.ts) calls too for the polls it takes.
   */
  router(): Router {
    const r = Router();
    r.get('/features', async (req, res) => this.poll(req, res, clientQuery(req, sdkPrincipal(req))));
    r.get('/features/:name', async (req, res) => this.featurePoll(req, res, clientQuery(req, sdkPrincipal(req)), req.params.name as string));
    r.get('/delta', async (req, res) => this.deltaPoll(req, res, clientQuery(req, sdkPrincipal(req))));
    r.get('/streaming', async (req, res) => this.stream(req, res, clientQuery(req, sdkPrincipal(req))));
    return r;
  }
}

/** The client API's read routes with a door of their own (a test mounts them behind a door of its own). */
export function clientFeaturesRouter(deps: SdkDeps, options: ClientFeaturesOptions = {}): Router {
  return new ClientFeaturesDoor(deps, options).router();
}

/** A query string parsed as Express parses it by default, for requests served without Express. */
export const parseQuery = (search: string): Query => parseQueryString(search);
