import type { GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './environments.resolvers';
import './projects.resolvers';
import './context.resolvers';
import './tags.resolvers';
import './events.resolvers';

let built: GraphQLSchema | undefined;

/** The Pothos schema, built once per process. */
export function buildSchema(): GraphQLSchema {
  return (built ??= builder.toSchema({ sortSchema: true }));
}
