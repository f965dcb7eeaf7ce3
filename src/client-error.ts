import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ContentTooLarge, errorBody, ValidationError, type DomainError } from './domain/errors';

/**
 * Requests Node's HTTP parser refuses before any handler runs (issue 8, defect 11): Node answers them with an empty
 * 400 or 431. They get the documented JSON error body instead, and the connection is closed (after a framing error
 * the rest of the stream cannot be trusted).
 * - HPE_HEADER_OVERFLOW: request line and headers over 16 kB → 431 ContentTooLarge;
 * - any other parse error (obs-fold, two Content-Length, Content-Length with Transfer-Encoding, bad chunking...) →
 *   400 ValidationError.
 */
export function errorForClientError(code: string | undefined): { status: number; reason: string; error: DomainError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    const error = new ContentTooLarge('16 kB');
    error.message = 'The request line and headers are larger than the accepted 16 kB.';
    return { status: 431, reason: 'Request Header Fields Too Large', error };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', error: ValidationError.single('', 'The request was not received in time.') };
  }
  return {
    status: 400, reason: 'Bad Request',
    error: ValidationError.single('', `The request is not well-formed HTTP/1.1 (${code ?? 'parse error'}): check its framing headers (Content-Length, Transfer-Encoding) and header syntax.`),
  };
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, error } = errorForClientError(err.code);
    const body = JSON.stringify(errorBody(error));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
