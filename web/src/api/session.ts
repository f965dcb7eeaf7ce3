import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import { href } from '../routing/links';
import { gql, rest } from './client';
import type { PermissionName } from '../gql/graphql';

const MeQuery = graphql(`
  query Me {
    me {
      user { id name username email rootRole isAPI }
    }
  }
`);

/** The signed-in user; a 401 here (no session) sends the app to the login page (main.tsx). */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => gql(MeQuery), staleTime: 60_000 });
}

const AllowedQuery = graphql(`
  query Allowed($project: String, $environment: String) {
    me { allowed(project: $project, environment: $environment) }
  }
`);

/** The query of `me.allowed` in one place (for pages that ask for several places at once with useQueries). */
export const allowedQuery = (project?: string, environment?: string) => ({
  queryKey: ['allowed', project ?? null, environment ?? null],
  queryFn: () => gql(AllowedQuery, { project: project ?? null, environment: environment ?? null }),
  staleTime: 30_000,
});

/**
 * The permissions the signed-in user holds in a project and environment, as the service decides them (`me.allowed`).
 * `can(name)` is false until the answer is in, so a control appears only once the service says it may.
 */
export function useAllowed(project?: string, environment?: string) {
  const query = useQuery(allowedQuery(project, environment));
  const held = new Set<PermissionName>(query.data?.me.allowed ?? []);
  return { can: (permission: PermissionName) => held.has(permission), loading: query.isPending };
}

export interface SignInConfig {
  password: boolean;
  saml: { enabled: boolean; loginUrl: string | null };
}

export const signInConfig = () => rest<SignInConfig>('GET', '/auth/config');
export const signIn = (username: string, password: string) => rest('POST', '/auth/simple/login', { username, password });
export const signOut = () => rest('POST', '/auth/logout', {});

/** The REST doors of an invite link (GET /invite/:secret/validate, POST /invite/:secret/signup). */
const invitePath = (secret: string) => `/invite/${encodeURIComponent(secret)}`;
export const validateInvite = (secret: string) => rest('GET', `${invitePath(secret)}/validate`);
export const signUpWithInvite = (secret: string, body: { name: string; email: string; password: string; username?: string }) =>
  rest('POST', `${invitePath(secret)}/signup`, body);

/** Where to go after signing in: only a path of this app (never another origin), default the projects. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith(href('login'))) return href('projects');
  return next;
}
