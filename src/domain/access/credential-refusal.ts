import { AuthenticationRequired } from '../errors';
import { MAX_TOKEN_LENGTH, PAT_PREFIX, tokenOf } from './authenticator';

/** Why a request's credentials gave no principal. */
export type CredentialProblem = 'missing' | 'malformed' | 'unknown-api-token' | 'unknown-personal-token' | 'session-ended';

/** Which door refused: the admin API and GraphQL also take a session, the SDK doors only their tokens. */
export type CredentialDoor = 'admin' | 'client' | 'frontend';

// The shapes flagdeck gives its secrets: API tokens `<project>:<environment>.<secret>` (the project may be `*` or `[]`,
// an environment name may hold dots), personal access tokens `user:<secret>`. Visible ASCII only, no spaces. The
// project part holds no colon and the secret no dot, so a long header is matched in linear time.
const API_TOKEN_SHAPE = /^[\x21-\x39\x3b-\x7e]+:[\x21-\x7e]+\.[\x21-\x2d\x2f-\x7e]+$/;
const PERSONAL_TOKEN_SHAPE = /^user:[\x21-\x7e]+$/;

/**
 * Classifies a refused credential. It is asked only once the lookup found nothing, so the shape never decides what is
 * accepted: a stored token of another shape still works, and only the wording of its refusal depends on the shape.
 */
export function credentialProblem(header: string | undefined, sessionId: string | undefined): CredentialProblem {
  if (header === undefined) return sessionId ? 'session-ended' : 'missing';
  const token = tokenOf(header);
  if (token.length > MAX_TOKEN_LENGTH) return 'malformed';
  if (token.startsWith(PAT_PREFIX)) return PERSONAL_TOKEN_SHAPE.test(token) ? 'unknown-personal-token' : 'malformed';
  return API_TOKEN_SHAPE.test(token) ? 'unknown-api-token' : 'malformed';
}

const SHAPES = 'an API token (`<project>:<environment>.<secret>`) or a personal access token (`user:<secret>`), optionally after `Bearer `';

/** What to send, by door: the SDK doors name their token types. */
const WHAT_TO_SEND: Record<CredentialDoor, string> = {
  admin: 'Send an admin API token or a personal access token in the Authorization header, or sign in at /auth/simple/login',
  client: 'Send a client token (or an admin token) in the Authorization header',
  frontend: 'Send a frontend token (or an admin token) in the Authorization header',
};

/**
 * The 401 for a refused credential, in words that say which case it is and what to do. It never quotes the header:
 * a mistyped secret is still a secret.
 */
export function credentialRefusal(problem: CredentialProblem, door: CredentialDoor): AuthenticationRequired {
  const send = WHAT_TO_SEND[door];
  switch (problem) {
    case 'missing':
      return new AuthenticationRequired(door === 'admin'
        ? `flagdeck needs credentials for this request, and it carried none (no Authorization header, no session). ${send}.`
        : `flagdeck needs an API token for the ${door} API, and the request had no Authorization header. ${send}.`);
    case 'session-ended':
      return new AuthenticationRequired(`Your flagdeck session has ended or expired (the session cookie is not a current session). ${send}.`);
    case 'malformed':
      return new AuthenticationRequired(`The Authorization header does not hold a flagdeck token: it should be ${SHAPES}. ${send}.`);
    case 'unknown-personal-token':
      return new AuthenticationRequired(`flagdeck does not know the personal access token in the Authorization header: it may have expired or been deleted. ${send}.`);
    case 'unknown-api-token':
      return new AuthenticationRequired(`flagdeck does not know the API token in the Authorization header: it may have expired or been deleted. ${send}.`);
  }
}
