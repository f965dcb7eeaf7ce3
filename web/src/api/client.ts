import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, toApiError } from './errors';

/**
 * Sends one typed GraphQL document to `/graphql`. The session cookie authenticates it; the JSON content type is what
 * the service asks of cookie-authenticated writes. The first error of a response is thrown as an ApiError in the
 * service's words; a 401 (the session ended) is seen by the query cache, which sends the user to the login page.
 */
export async function gql<R, V>(document: TypedDocumentString<R, V>, ...[variables]: V extends Record<string, never> ? [] | [V] : [V]): Promise<R> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError(0, 'NetworkError', 'The service could not be reached. Check that it is running, then try again.');
  }
  const body = (await response.json().catch(() => null)) as { data?: R; errors?: unknown[] } | null;
  if (body?.errors?.length) throw toApiError(response.status, body.errors[0]);
  if (!response.ok || !body?.data) throw toApiError(response.status, body);
  return body.data;
}

/** A call to one of the REST paths the UI may use (signing in and out, invite and reset links): JSON in and out. */
export async function rest<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'NetworkError', 'The service could not be reached. Check that it is running, then try again.');
  }
  const text = await response.text();
  // An empty answer (200 with no body, as several of these paths give) is null: the query cache takes no undefined.
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) throw toApiError(response.status, parsed);
  return parsed as T;
}
