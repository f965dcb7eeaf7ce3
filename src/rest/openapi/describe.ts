import { z } from 'zod';

/**
 * How each REST route is documented in the OpenAPI reference (`/docs/openapi.json`, src/rest/openapi/document.ts).
 * A route's request body is the zod schema its service validates with (exported from the service), so the reference
 * and the validation cannot drift; its answers are the shapes the domain declares its answers with
 * (src/domain/<area>/*.shapes.ts, whose types the services return) and the REST-only envelopes of the route files'
 * docs. The e2e suite checks every response it receives against this document (test/support/openapi-check.ts).
 */

/** Who may call a route: an admin-API principal (API token, personal access token or session), an SDK token, anyone. */
export type RouteAuth = 'admin' | 'client' | 'frontend' | 'sdk' | 'public';

/** A documented answer: a JSON body of this schema, no body (`null`), or another media type. */
export type ResponseDoc =
  | z.ZodType
  | null
  | {
    description?: string;
    schema?: z.ZodType;
    contentType?: string;
    headers?: Record<string, string>;
    /** More than one media type (for example JSON or YAML as the query asks): each media type → its schema (null: none). */
    content?: Record<string, z.ZodType | null>;
  };

export interface RouteDoc {
  /** One line: what the route does. */
  summary: string;
  /** More words when the summary is not enough (markdown). */
  description?: string;
  /** The group the reference lists it under (for example `Tags`). */
  tag: string;
  /** Default `admin`. */
  auth?: RouteAuth;
  /**
   * The permission it needs, when it is not a state-changing route listed in src/domain/access/operation-permissions.ts
   * (those take the permission from there). Default for reads: any admin-API principal.
   */
  permission?: string;
  /** Path parameters, when they are more than plain text (default: each `:name` of the path is a string). */
  params?: Record<string, { description?: string; schema?: z.ZodType }>;
  /** Query parameters: an object schema, each property one parameter. */
  query?: z.ZodObject;
  /** The JSON request body: the schema the service parses it with. */
  body?: z.ZodType;
  /** The request body may be left out (default: required when `body` is given). */
  bodyOptional?: boolean;
  /** Another media type of the request body (default application/json). */
  bodyContentType?: string;
  /** Answers by status (2xx and 3xx, or an answer that is not an error body, like the 503 of /health; error bodies go in `errors`). */
  responses: Record<number, ResponseDoc>;
  /**
   * Error names this route may answer besides those every route of its kind may answer (see `commonErrors` in
   * document.ts: authentication, a bad URL, a bad body, a missing path parameter's object). Statuses come from
   * STATUS_BY_NAME.
   */
  errors?: readonly string[];
  /** Mark deprecated (kept for Unleash clients). */
  deprecated?: boolean;
}

/** `METHOD /path` (the path as Express declares it, for example `GET /api/admin/tags/:type`) → its documentation. */
export type RouteDocs = Readonly<Record<string, RouteDoc>>;

/** `version: 1` that Unleash's list answers carry. */
export const version1 = z.literal(1);
