import type { Request, Response } from 'express';
import { BREAK, GraphQLError, Kind, validate, visit, type ASTNode, type DocumentNode } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { fromDatabaseError } from '../domain/database-errors';
import { DomainError, ServiceUnavailableError, STATUS_BY_NAME } from '../domain/errors';
import type { Services } from '../domain/services';
import type { Logger } from '../logger';
import type { GraphQLContext } from './builder';
import { buildSchema } from './index';
import { compiledExecution, type ExecutionPath } from './compiled-execution';
import { costRule, documentRules, parseWithinLimits, type RequestLimits } from './limits';
import { responseCache, type ResponseCache, type ResponseCacheLimits } from './response-cache';
import type { VersionReader } from '../domain/client-features/version-reader';

const VALUE_KINDS: ReadonlySet<string> = new Set([
  Kind.VARIABLE, Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT,
]);

/**
 * Where a request error points, as a `details[].path` joined with '/' like the REST paths: response keys,
 * argument and input-field names and list indexes down to the offending node (for example
 * `createTag/input/colour`), or, for a variable, its name and the property path inside its value
 * (`input/sortOrder`). '' when the error is about the whole document (a syntax error, the operation limits).
 */
function requestErrorPath(error: GraphQLError, document?: DocumentNode): string {
  const target = error.nodes?.[0];
  if (!target) return '';
  if (target.kind === Kind.VARIABLE_DEFINITION) {
    const name = target.variable.name.value;
    // graphql-js names the position inside the variable's value only in the message: `... at "input.sortOrder"; ...`.
    const at = new RegExp(` at "(${name}(?:\\.[^".[]+|\\[\\d+\\])*)"; `).exec(error.message)?.[1];
    return (at ?? name).replace(/\[(\d+)\]/g, '.$1').split('.').join('/');
  }
  if (!document) return '';
  const segments: string[] = [];
  const pushed: boolean[] = [];
  let found = '';
  visit(document, {
    enter(node: ASTNode, key, parent) {
      let segment: string | undefined;
      if (node.kind === Kind.FIELD) segment = (node.alias ?? node.name).value;
      else if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) segment = node.name.value;
      else if (Array.isArray(parent) && typeof key === 'number' && VALUE_KINDS.has(node.kind)) segment = String(key);
      pushed.push(segment !== undefined);
      if (segment !== undefined) segments.push(segment);
      if (node === target) {
        found = segments.join('/');
        return BREAK;
      }
      return undefined;
    },
    leave() {
      if (pushed.pop()) segments.pop();
    },
  });
  return found;
}

/** A parse, validation or variable error of the request itself: a ValidationError (400), as REST reports a bad body. */
function requestError(error: GraphQLError, document?: DocumentNode): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path,
    extensions: {
      ...error.extensions,
      name: 'ValidationError',
      code: 400,
      details: [{ path: requestErrorPath(error, document), message: error.message }],
      // graphql-yoga answers with this status (and does not print it): a request refused before it runs is a 400.
      http: { status: 400 },
    },
  });
}

/** The GraphQL error mask: domain errors keep their name (same as REST), anything else becomes a logged generic error. */
export function maskError(logger: Logger, onRefusedForOutage?: () => void) {
  return (error: unknown): Error => {
    const raw = error instanceof GraphQLError ? error.originalError : error;
    const original = fromDatabaseError(raw) ?? raw;
    if (original instanceof ServiceUnavailableError) onRefusedForOutage?.();
    const gql = error instanceof GraphQLError ? error : undefined;
    if (original instanceof DomainError) {
      return new GraphQLError(original.message, {
        nodes: gql?.nodes, path: gql?.path,
        extensions: {
          name: original.name, code: STATUS_BY_NAME[original.name] ?? 500, id: original.id, ...original.extra(),
          // What REST says in its Retry-After header.
          ...(original instanceof ServiceUnavailableError ? { retryAfter: original.retryAfterSeconds } : {}),
        },
      });
    }
    // Errors of the request itself carry no response path: a syntax error, or a variable value that does not fit its
    // type (graphql-js wraps the coercion's GraphQLError in another one). Anything thrown while resolving has a path.
    if (gql && !gql.path && (!original || original instanceof GraphQLError)) return requestError(gql);
    const id = crypto.randomUUID();
    logger.error({ err: original, errorId: id, path: gql?.path }, 'unexpected GraphQL error');
    return new GraphQLError(`Something went wrong on our side. Quote error id ${id} when you report it.`, {
      nodes: gql?.nodes, path: gql?.path, extensions: { name: 'InternalError', code: 500, id },
    });
  };
}

/**
 * The request limits of src/resolvers/limits.ts: the nesting scan and token limit at parsing, the alias, directive,
 * depth, field and cost rules at validation (with the request's variables). Validation errors get the
 * ValidationError shape: graphql-yoga returns them without passing them through the error mask.
 */
function requestLimits(limits: RequestLimits): Plugin<{ params?: { variables?: Record<string, unknown> | null; operationName?: string | null } }> {
  return {
    onParse({ setParseFn }) {
      setParseFn((source) => parseWithinLimits(typeof source === 'string' ? source : source.body));
    },
    // A request refused before it runs (parse, validation, variables: every error a 400 ValidationError and no data)
    // is answered with HTTP 400, as the REST door answers a bad body; yoga would send 200 for validation errors.
    onResultProcess({ result }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.length || result.data != null) return;
      if (result.errors.every((e) => e.extensions?.code === 400)) result.extensions = { ...result.extensions, http: { status: 400 } };
    },
    onValidate({ addValidationRule, params, context }) {
      for (const rule of documentRules) addValidationRule(rule);
      return ({ result, setResult }) => {
        const errors = result.length > 0 ? result : validate(params.schema, params.documentAST, [
          costRule({ context, variables: context.params?.variables, operationName: context.params?.operationName }, limits),
        ]);
        if (errors.length > 0) setResult(errors.map((e) => requestError(e, params.documentAST)));
      };
    },
  };
}

export interface ExecutionOptions {
  /** Hot queries run compiled (default true). */
  compiled?: boolean;
  /** Executions of a text before it is compiled (default 1). */
  compileAfter?: number;
  onExecuted?: (path: ExecutionPath) => void;
  /** Called for each error that refuses an operation because the database is away (a Prometheus count). */
  onRefusedForOutage?: () => void;
  /**
   * Repeated reads answered from memory while `model_version` stands still (src/resolvers/response-cache.ts): the
   * app's reader of the counter; without one, nothing is cached.
   */
  responseCache?: { versions: VersionReader; limits?: ResponseCacheLimits };
}

export interface GraphQLHandler {
  (req: Request, res: Response): Promise<void>;
  /** The response cache's store, when caching (tests read its counters). */
  cache?: ResponseCache['store'];
}

export function graphqlHandler(logger: Logger, limits: RequestLimits = {}, { compiled = true, compileAfter, onExecuted, onRefusedForOutage, responseCache: caching }: ExecutionOptions = {}): GraphQLHandler {
  const schema = buildSchema();
  const cache = caching ? responseCache(schema, caching.versions, caching.limits, () => onExecuted?.('cached')) : undefined;
  const yoga = createYoga<{ req: Request & { scope?: { services: Services } }; res: Response }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    // The GraphiQL page and its files are served by src/graphiql/graphiql.ts (from the service itself, no CDN).
    graphiql: false,
    // CORS is the app's (src/rest/cors.ts, CORS_ORIGINS); yoga's own would echo any origin, with credentials.
    cors: false,
    maskedErrors: { maskError: maskError(logger, onRefusedForOutage) },
    // The response cache comes last: on a miss it wraps the execute function the compiled execution chose.
    plugins: [requestLimits(limits), compiled ? compiledExecution(schema, { compileAfter, onExecuted }).plugin : standardExecution(onExecuted), ...(cache?.plugins ?? [])],
    // The cost rules depend on each request's variables: a validation result must not be reused for the same text.
    parserAndValidationCache: { validationCache: false },
    context: ({ req, request }) => {
      if (!req.scope) throw new Error('GraphQL operation without a request scope');
      return { services: req.scope.services, signal: request.signal };
    },
  });
  const handler: GraphQLHandler = async (req: Request, res: Response) => { await yoga.handle(req, res, { req, res }); };
  handler.cache = cache?.store;
  return handler;
}

/** The standard executor, counted when it runs (not when a cached answer stands in for it). */
function standardExecution(onExecuted?: (path: ExecutionPath) => void): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        onExecuted?.('standard');
        return executeFn(args);
      });
    },
  };
}
