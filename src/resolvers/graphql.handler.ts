import type { Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { DomainError, STATUS_BY_NAME } from '../domain/errors';
import type { Services } from '../domain/services';
import type { Logger } from '../logger';
import type { GraphQLContext } from './builder';
import { buildSchema } from './index';
import { operationLimits } from './limits';

/** The GraphQL error mask: domain errors keep their name (same as REST), anything else becomes a logged generic error. */
export function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    const gql = error instanceof GraphQLError ? error : undefined;
    if (original instanceof DomainError) {
      return new GraphQLError(original.message, {
        nodes: gql?.nodes, path: gql?.path,
        extensions: { name: original.name, code: STATUS_BY_NAME[original.name] ?? 500, id: original.id, ...original.extra() },
      });
    }
    if (gql && !gql.originalError) {
      // Parse and validation errors of the operation itself.
      return new GraphQLError(gql.message, { nodes: gql.nodes, path: gql.path, extensions: { name: 'ValidationError', code: 400, ...gql.extensions } });
    }
    const id = crypto.randomUUID();
    logger.error({ err: original, errorId: id, path: gql?.path }, 'unexpected GraphQL error');
    return new GraphQLError(`Something went wrong on our side. Quote error id ${id} when you report it.`, {
      nodes: gql?.nodes, path: gql?.path, extensions: { name: 'InternalError', code: 500, id },
    });
  };
}

const limits: Plugin = {
  onValidate({ addValidationRule }) {
    addValidationRule(operationLimits());
  },
};

export function graphqlHandler(logger: Logger) {
  const yoga = createYoga<{ req: Request & { scope?: { services: Services } }; res: Response }, GraphQLContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    graphiql: {
      title: 'flagdeck GraphQL',
      headers: JSON.stringify({ Authorization: '<your admin API token>' }, null, 2),
      defaultQuery: '# Put your admin token in the Headers tab below, then run:\n{\n  projects { id name environments { environment } }\n  tags { type value }\n}\n',
    },
    maskedErrors: { maskError: maskError(logger) },
    plugins: [limits],
    context: ({ req }) => {
      if (!req.scope) throw new Error('GraphQL operation without a request scope');
      return { services: req.scope.services };
    },
  });
  return (req: Request, res: Response) => yoga.handle(req, res, { req, res });
}
