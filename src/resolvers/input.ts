/**
 * GraphQL inputs carry `undefined` for absent optional fields; services take the same plain objects as the
 * REST bodies, so absent fields are dropped (explicit nulls stay, and the service validates them).
 */
export function defined<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
}
