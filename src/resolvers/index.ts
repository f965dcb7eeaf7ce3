import type { GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './environments.resolvers';
import './projects.resolvers';
import './context.resolvers';
import './tags.resolvers';
import './segments.resolvers';
import './events.resolvers';
import './strategies.resolvers';
import './features.resolvers';
import './playground.resolvers';

let built: GraphQLSchema | undefined;

/** The Pothos schema, built once per process. */
export function buildSchema(): GraphQLSchema {
  return (built ??= builder.toSchema({ sortSchema: true }));
}
