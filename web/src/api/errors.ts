/** One detail of a refusal: where (a field path, when the service names one) and what. */
export interface ErrorDetail {
  path?: string;
  message: string;
}

/**
 * A refusal of the service, in its own words: the error name (`NoAccessError`, `NameExistsError`, ...), its message
 * and details, and the HTTP status (GraphQL errors carry it as `extensions.code`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isSignedOut(): boolean {
    return this.status === 401;
  }
}

const asDetails = (value: unknown): ErrorDetail[] =>
  Array.isArray(value)
    ? value.flatMap((d) => {
        if (!d || typeof d !== 'object') return [];
        const { path, message, description } = d as { path?: unknown; message?: unknown; description?: unknown };
        const text = typeof message === 'string' ? message : typeof description === 'string' ? description : undefined;
        if (!text) return [];
        const where = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : undefined;
        return [{ ...(where ? { path: where } : {}), message: text }];
      })
    : [];

/** The REST error body (`{name, message, details}`) or GraphQL error (`{message, extensions: {name, code, details}}`). */
export function toApiError(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as { name?: unknown; message?: unknown; details?: unknown; extensions?: { name?: unknown; code?: unknown; details?: unknown } };
  const ext = b.extensions;
  const name = typeof ext?.name === 'string' ? ext.name : typeof b.name === 'string' ? b.name : 'Error';
  const code = typeof ext?.code === 'number' ? ext.code : status;
  const message = typeof b.message === 'string' ? b.message : `The service answered ${status}.`;
  return new ApiError(code, name, message, asDetails(ext?.details ?? b.details));
}
