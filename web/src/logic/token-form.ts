import type { PermissionName } from '../gql/graphql';

/**
 * The API token form's rules (issue 29, item 3), without React: which types a user may create, what the form sends,
 * what it refuses before sending, and where each type's secret goes in an SDK.
 */

export type TokenType = 'client' | 'frontend' | 'admin';

/** The root permission the service asks for to create a token of each type (api-token.service.ts). */
const CREATE_PERMISSION: Record<TokenType, PermissionName> = {
  client: 'CREATE_CLIENT_API_TOKEN',
  frontend: 'CREATE_FRONTEND_API_TOKEN',
  admin: 'ADMIN',
};

const TYPE_ORDER: TokenType[] = ['client', 'frontend', 'admin'];

/** The types the user may create, in the form's order, from `me.allowed` (`can`); empty when none. */
export function creatableTokenTypes(can: (permission: PermissionName) => boolean): TokenType[] {
  return TYPE_ORDER.filter((t) => can(CREATE_PERMISSION[t]));
}

export const TOKEN_TYPE_LABELS: Record<TokenType, string> = {
  client: 'Client (server-side SDKs)',
  frontend: 'Frontend (browser and mobile SDKs)',
  admin: 'Admin (the admin API)',
};

export interface TokenDraft {
  name: string;
  type: TokenType;
  /** Chosen projects; empty means every project (`*`). */
  projects: string[];
  environment: string;
  /** ISO 8601, or '' for a token that never expires. */
  expiresAt: string;
}

export interface TokenDraftProblems {
  name?: string;
  environment?: string;
  expiresAt?: string;
}

/** What to fix before sending; `now` is a parameter so the check is testable. Empty when the draft can be sent. */
export function tokenDraftProblems(draft: TokenDraft, now = Date.now()): TokenDraftProblems {
  const problems: TokenDraftProblems = {};
  if (draft.name.trim() === '') problems.name = 'Give the token a name.';
  else if (draft.name.trim().length > 200) problems.name = 'At most 200 characters.';
  if (draft.type !== 'admin' && draft.environment === '') problems.environment = `A ${draft.type} token reads one environment: choose it.`;
  if (draft.expiresAt !== '') {
    const at = Date.parse(draft.expiresAt);
    if (Number.isNaN(at)) problems.expiresAt = 'Not a date.';
    else if (at <= now) problems.expiresAt = 'The expiry must be in the future.';
  }
  return problems;
}

export interface CreateTokenVariables {
  tokenName: string;
  type: TokenType;
  projects?: string[];
  environment?: string;
  expiresAt?: string;
}

/**
 * The createApiToken input: an admin token names no project or environment (it reads everything, and the service
 * refuses any other value); no chosen project means every project.
 */
export function tokenInput(draft: TokenDraft): CreateTokenVariables {
  const input: CreateTokenVariables = { tokenName: draft.name.trim(), type: draft.type };
  if (draft.type !== 'admin') {
    input.projects = draft.projects.length > 0 ? [...new Set(draft.projects)] : ['*'];
    input.environment = draft.environment;
  }
  if (draft.expiresAt !== '') input.expiresAt = new Date(draft.expiresAt).toISOString();
  return input;
}

/** The projects column: "All projects" for `*`, else the ids. */
export const projectsLabel = (projects: readonly string[]): string =>
  projects.length === 0 || projects.includes('*') ? 'All projects' : projects.join(', ');

/** The environment column: "All environments" for an admin token's `*`. */
export const environmentLabel = (environment: string): string => (environment === '*' ? 'All environments' : environment);

/** Whether a token has expired at `now`. */
export const isExpired = (expiresAt: string | null | undefined, now = Date.now()): boolean =>
  !!expiresAt && Date.parse(expiresAt) <= now;

export interface TokenUsage {
  /** What reads the token. */
  sdk: string;
  /** The SDK setting or header the secret goes in. */
  setting: string;
  /** The API it opens (what the SDK calls under its `url`). */
  endpoint: string;
  /** A minimal example with the secret in place. */
  example: string;
}

/**
 * Where a token of `type` goes: a client token in a server-side SDK's Authorization header (`customHeaders` in the
 * Node SDK), which calls /api/client; a frontend token as a frontend SDK's `clientKey`, against /api/frontend; an admin
 * token in the Authorization header of admin API calls.
 */
export function tokenUsage(type: TokenType, origin: string, secret = '<secret>'): TokenUsage {
  const base = origin.replace(/\/+$/, '');
  const q = JSON.stringify;
  if (type === 'client') {
    return {
      sdk: 'a server-side SDK (Node, Java, Go, Python, …)', setting: 'the Authorization header (customHeaders.Authorization in the Node SDK)', endpoint: `${base}/api/client`,
      example: `new Unleash({ url: ${q(`${base}/api`)}, appName: 'my-app', customHeaders: { Authorization: ${q(secret)} } })`,
    };
  }
  if (type === 'frontend') {
    return {
      sdk: 'a frontend SDK (browser, React, iOS, Android)', setting: 'clientKey', endpoint: `${base}/api/frontend`,
      example: `new UnleashClient({ url: ${q(`${base}/api/frontend`)}, appName: 'my-app', clientKey: ${q(secret)} })`,
    };
  }
  return {
    sdk: 'scripts and tools calling the admin API', setting: 'the Authorization header of each request', endpoint: `${base}/api/admin`,
    example: `curl -H ${q(`Authorization: ${secret}`)} ${base}/api/admin/projects`,
  };
}
