import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { fromDatabaseError } from '../domain/database-errors';
import { ContentTooLarge, ContentTypeerror, DomainError, errorBody, NotFoundError, ServiceUnavailableError, STATUS_BY_NAME, ValidationError } from '../domain/errors';
import { redactUrl, type Logger } from '../logger';
import { markRefusedForOutage } from '../observability/requests';

type Res = Parameters<RequestHandler>[1];

/**
 * The REST error body with its status. Written with node:http's own calls (what Express's `res.json` writes: the status,
 * `application/json; charset=utf-8`, the length, the bytes), so the requests served before Express
 * (src/rest/sdk/fast-paths.ts) answer errors byte for byte as Express's routes do.
 */
export function sendError(res: ServerResponse, err: DomainError): void {
  if (err instanceof ServiceUnavailableError) refusedForOutage(res, err, 'rest');
  writeJson(res, STATUS_BY_NAME[err.name] ?? 500, errorBody(err));
}

/** A refusal because the database is away: when to try again, and counted as such. */
function refusedForOutage(res: ServerResponse, err: ServiceUnavailableError, api: 'rest' | 'graphql'): void {
  res.setHeader('Retry-After', String(err.retryAfterSeconds));
  markRefusedForOutage(res, api);
}

function writeJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** The same error in GraphQL's response shape (as the error mask shapes it): `{errors: [{message, extensions}]}`. */
export function sendGraphQLError(res: Res, err: DomainError): void {
  const code = STATUS_BY_NAME[err.name] ?? 500;
  if (err instanceof ServiceUnavailableError) refusedForOutage(res, err, 'graphql');
  res.status(code).json({ errors: [{ message: err.message, extensions: { name: err.name, code, id: err.id, ...err.extra() } }] });
}

/** Unknown `/api/...` paths answer with a JSON 404 like every other error. */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, new NotFoundError(`The path you were looking for (${req.originalUrl.split('?')[0]}) is not available.`));
};

/** What a request error that is not a DomainError means for the caller, when it is the caller's doing. */
function fromRequestError(err: unknown, contentType: string | undefined): DomainError | undefined {
  const type = (err as { type?: string })?.type;
  if (type === 'entity.too.large') {
    // body-parser reports the limit in bytes: the JSON door's 100 kB, or a larger one where a route takes more.
    const limit = (err as { limit?: unknown }).limit;
    return new ContentTooLarge(typeof limit === 'number' && limit !== 100 * 1024 ? `${Math.round(limit / 1024)} kB` : '100 kB');
  }
  if (type === 'entity.parse.failed') return ValidationError.single('', `The request body is not valid JSON: ${(err as Error).message}`);
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new ContentTypeerror(contentType);
  const translated = fromDatabaseError(err);
  if (translated) return translated;
  // Requests the HTTP layer could not read: a path parameter that is not valid percent-encoding, a body that does not decompress.
  if (err instanceof URIError) return ValidationError.single('', `The request path is not valid percent-encoding: ${err.message}`);
  if ((err as { status?: number })?.status === 400) {
    return ValidationError.single('', 'The request body could not be read (for example, it does not match its Content-Encoding).');
  }
  return undefined;
}

/**
 * The single error mapper of each door: domain errors by name; errors of reading the request; anything else a generic
 * 500 whose id is logged. `graphql`: answer in GraphQL's shape (mounted on /graphql, for what fails before yoga runs).
 */
export function errorHandler(logger: Logger, shape: 'rest' | 'graphql' = 'rest'): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (shape === 'rest') return answerError(logger, err, req, res);
    const known = err instanceof DomainError ? err : fromRequestError(err, req.headers?.['content-type']);
    if (known) return sendGraphQLError(res, known);
    const { id, message } = unexpected(logger, err, req.method, req.originalUrl);
    res.status(500).json({ errors: [{ message, extensions: { name: 'InternalError', code: 500, id } }] });
  };
}

/** Logs an error nobody expected under a new id; the message the caller gets quotes it. */
function unexpected(logger: Logger, err: unknown, method: string | undefined, url: string | undefined): { id: string; message: string } {
  const id = crypto.randomUUID();
  logger.error({ err, errorId: id, method, path: redactUrl(url ?? '') }, 'unexpected error');
  return { id, message: `Something went wrong on our side. Quote error id ${id} when you report it.` };
}

/**
 * A REST error answer for any error: domain errors by name, errors of reading the request by what they mean, anything
 * else a logged 500. The Express error handler and the requests served before Express both answer through it.
 */
export function answerError(logger: Logger, err: unknown, req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): void {
  const known = err instanceof DomainError ? err : fromRequestError(err, req.headers?.['content-type']);
  if (known) return sendError(res, known);
  const { id, message } = unexpected(logger, err, req.method, req.originalUrl ?? req.url);
  writeJson(res, 500, { id, name: 'InternalError', message });
}
