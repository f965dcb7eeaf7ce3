import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ContentTooLarge, ContentTypeerror, DomainError, errorBody, fromDatabaseError, NotFoundError, STATUS_BY_NAME, ValidationError } from '../domain/errors';
import type { Logger } from '../logger';

export function sendError(res: Parameters<RequestHandler>[1], err: DomainError): void {
  res.status(STATUS_BY_NAME[err.name] ?? 500).json(errorBody(err));
}

/** Unknown `/api/...` paths answer with a JSON 404 like every other error. */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, new NotFoundError(`The path you were looking for (${req.originalUrl.split('?')[0]}) is not available.`));
};

/** The single REST error mapper: domain errors by name; body-parser failures; anything else a generic 500 whose id is logged. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof DomainError) return sendError(res, err);
    const type = (err as { type?: string })?.type;
    if (type === 'entity.too.large') return sendError(res, new ContentTooLarge('100 kB'));
    if (type === 'entity.parse.failed') {
      return sendError(res, ValidationError.single('', `The request body is not valid JSON: ${(err as Error).message}`));
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendError(res, new ContentTypeerror(req.headers['content-type']));
    }
    const translated = fromDatabaseError(err);
    if (translated) return sendError(res, translated);
    // Requests the HTTP layer could not read: a path parameter that is not valid percent-encoding, a body that does not decompress.
    if (err instanceof URIError) return sendError(res, ValidationError.single('', `The request path is not valid percent-encoding: ${err.message}`));
    if ((err as { status?: number })?.status === 400) {
      return sendError(res, ValidationError.single('', 'The request body could not be read (for example, it does not match its Content-Encoding).'));
    }
    const id = crypto.randomUUID();
    logger.error({ err, errorId: id, method: req.method, path: req.originalUrl }, 'unexpected error');
    res.status(500).json({ id, name: 'InternalError', message: `Something went wrong on our side. Quote error id ${id} when you report it.` });
  };
}
