import type { GraphQLSchema } from 'graphql';
import { MUTATION_PERMISSIONS, permissionSentence } from '../domain/access/operation-permissions';
import { priceRootLists } from './cost';
import { builder } from './builder';
import './environments.resolvers';
import './projects.resolvers';
import './context.resolvers';
import './tags.resolvers';
import './segments.resolvers';
import './events.resolvers';
import './strategies.resolvers';
import './features.resolvers';
import './feature-environments.resolvers';
import './feature-move.resolvers';
import './history.resolvers';
import './lifecycle.resolvers';
import './feature-index.resolvers';
import './exposure.resolvers';
import './playground.resolvers';
import './users.resolvers';
import './roles.resolvers';
import './tokens.resolvers';
import './project-access.resolvers';
import './groups.resolvers';
import './signup-tokens.resolvers';
import './saml.resolvers';
import './addons.resolvers';
import './change-requests.resolvers';
import './change-request-preview.resolvers';
import './import-export.resolvers';
import './state-export.resolvers';
import './metrics.resolvers';
import './unknown-flags.resolvers';
import './ui-config.resolvers';

let built: GraphQLSchema | undefined;

/**
 * Each mutation's description ends with the permission it needs, from the one operation table
 * (src/domain/access/operation-permissions.ts) the services' checks are tested against, so GraphiQL and the printed
 * schema say what a caller needs before they try.
 */
function documentPermissions(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(fields)) {
    const declared = MUTATION_PERMISSIONS.get(name);
    if (declared) field.description = [field.description, permissionSentence(declared)].filter(Boolean).join(' ');
  }
  return schema;
}

/** The Pothos schema, built once per process. */
export function buildSchema(): GraphQLSchema {
  return (built ??= priceRootLists(documentPermissions(builder.toSchema({ sortSchema: true }))));
}
