import { hashKey, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { gql } from '../api/client';
import { resetPassword, signIn, signInConfig, signOut, signUpWithInvite, validateInvite, validateResetToken } from '../api/session';
import { graphql } from '../gql';
import type { PermissionName } from '../gql/graphql';
import { sessionKeys } from './keys';
import { useAppMutation } from './mutation';

// The signed-in user and what they may do (operation names as before: "Me", "Allowed"); signing in and out.

const MeQuery = graphql(`
  query Me {
    me {
      user { id name username email rootRole isAPI }
    }
  }
`);

/** The signed-in user; a 401 here (no session) sends the app to the login page (main.tsx). */
export function useMe() {
  return useQuery({ queryKey: sessionKeys.me(), queryFn: () => gql(MeQuery), staleTime: 60_000 });
}

const AllowedQuery = graphql(`
  query Allowed($project: String, $environment: String) {
    me { allowed(project: $project, environment: $environment) }
  }
`);

/** The query of `me.allowed` in one place (for pages that ask for several places at once with useQueries). */
export const allowedQuery = (project?: string, environment?: string) => ({
  queryKey: sessionKeys.allowed(project, environment),
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

// ---- signing in and out, and the links the service hands out (REST, api/session.ts) ---------------------------

/** How one may sign in here (password, SAML): the login page's choices. */
export const useSignInConfig = () => useQuery({ queryKey: sessionKeys.signInConfig(), queryFn: signInConfig, retry: false });

/** Who a reset or invitation link is for; a used or unknown link is refused (401), which is its answer here. */
export const useResetToken = (token: string) =>
  useQuery({ queryKey: sessionKeys.resetToken(token), queryFn: () => validateResetToken(token), retry: false, enabled: token !== '' });

/** Whether an invite link may still be used to sign up. */
export const useInvite = (secret: string) => useQuery({ queryKey: sessionKeys.invite(secret), queryFn: () => validateInvite(secret), retry: false });

/**
 * A new session (signed in as someone, maybe someone else): nothing the earlier one cached may show. A link page keeps
 * its own link's check (`keep`): asked again, a used link answers 401, which would send the app to the login page.
 */
function useForgetSession() {
  const client = useQueryClient();
  return (keep?: QueryKey) => {
    if (!keep) return client.clear();
    const kept = hashKey(keep);
    client.removeQueries({ predicate: (q) => hashKey(q.queryKey) !== kept });
  };
}

/** Signs in with a username (or email) and password; the page then goes where it was headed. */
export function useSignIn() {
  const forget = useForgetSession();
  return useAppMutation({
    mutationFn: ({ username, password }: { username: string; password: string }) => signIn(username, password),
    onSuccess: () => forget(),
    invalidates: [],
  });
}

/** Ends the session (a refusal changes nothing: the session is gone either way) and empties the cache. */
export function useSignOut() {
  const forget = useForgetSession();
  return useAppMutation({
    mutationFn: () => signOut().then(() => undefined, () => undefined),
    onSuccess: () => forget(),
    invalidates: [],
  });
}

/** Signs in with what was just set; false (no session) when the service refuses or there is no email to sign in with. */
const signInAfter = (email: string | null | undefined, password: string) =>
  (email ? signIn(email, password).then(() => true, () => false) : Promise.resolve(false));

/** Sets the password a reset or invitation link is for, then signs its holder in with it (by the email the link names). */
export function useSetPassword(token: string) {
  const forget = useForgetSession();
  return useAppMutation({
    mutationFn: async ({ password, email }: { password: string; email: string | null | undefined }) => {
      await resetPassword(token, password);
      return signInAfter(email, password);
    },
    onSuccess: (signedIn) => { if (signedIn) forget(sessionKeys.resetToken(token)); },
    invalidates: [],
  });
}

/** Signs up with an invite link, then signs the new account in with what was typed. */
export function useSignUpWithInvite(secret: string) {
  const forget = useForgetSession();
  return useAppMutation({
    mutationFn: async ({ username, ...account }: { name: string; email: string; username: string; password: string }) => {
      await signUpWithInvite(secret, { ...account, ...(username ? { username } : {}) });
      return signInAfter(account.email, account.password);
    },
    onSuccess: (signedIn) => { if (signedIn) forget(sessionKeys.invite(secret)); },
    invalidates: [],
  });
}
