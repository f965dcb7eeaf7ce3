import { builder } from './builder';

/**
 * GraphQL inputs carry `undefined` for absent optional fields; services take the same plain objects as the
 * REST bodies, so absent fields are dropped (explicit nulls stay, and the service validates them).
 */
export function defined<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as T;
}

/** Names one thing (a user, a role, a personal access token) by its numeric id. */
export const IdInput = builder.inputType('IdInput', {
  description: 'Names one thing by its numeric id.',
  fields: (t) => ({ id: t.int({ required: true, description: 'The id.' }) }),
});
