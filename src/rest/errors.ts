import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ContentTooLarge, ContentTypeerror, DomainError, errorBody, fromDatabaseError, NotFoundError, STATUS_BY_NAME, ValidationError } from '../domain/errors';
import { redactUrl, type Logger } from '../logger';

type Res = Parameters<RequestHandler>[1];

export function sendError(res: Res, err: DomainError): void {
  res.status(STATUS_BY_NAME[err.name] ?? 500).json(errorBody(err));
}

/** The same error in GraphQL's response shape (as the error mask shapes it): `{errors: [{message, extensions}]}`. */
export function sendGraphQLError(res: Res, err: DomainError): void {
  const code = STATUS_BY_NAME[err.name] ?? 500;
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
  const send = shape === 'graphql' ? sendGraphQLError : sendError;
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const known = err instanceof DomainError ? err : fromRequestError(err, req.headers?.['content-type']);
    if (known) return send(res, known);
    const id = crypto.randomUUID();
    logger.error({ err, errorId: id, method: req.method, path: redactUrl(req.originalUrl) }, 'unexpected error');
    const message = `Something went wrong on our side. Quote error id ${id} when you report it.`;
    if (shape === 'graphql') res.status(500).json({ errors: [{ message, extensions: { name: 'InternalError', code: 500, id } }] });
    else res.status(500).json({ id, name: 'InternalError', message });
  };
}
