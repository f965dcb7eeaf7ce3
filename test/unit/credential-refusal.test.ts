import { describe, expect, it } from '@jest/globals';
import { credentialProblem, credentialRefusal, type CredentialDoor, type CredentialProblem } from '../../src/domain/access/credential-refusal';

/** Issue 31: a refused credential's 401 says which case it is, names flagdeck, and never quotes the credential. */
describe('credentialProblem', () => {
  it.each<[string, string | undefined, string | undefined, CredentialProblem]>([
    ['no header, no session', undefined, undefined, 'missing'],
    ['no header, an empty session cookie', undefined, '', 'missing'],
    ['no header, a session id that found no session', undefined, 'abc123', 'session-ended'],
    ['an empty header', '', undefined, 'malformed'],
    ['a bare Bearer', 'Bearer', undefined, 'malformed'],
    ['Basic credentials', 'Basic dXNlcjpwYXNz', undefined, 'malformed'],
    ['a secret without project and environment', '0123456789abcdef', undefined, 'malformed'],
    ['a project without environment and secret', 'default:', undefined, 'malformed'],
    ['an empty secret', '*:*.', undefined, 'malformed'],
    ['a token with a space inside', '*:*.abc def', undefined, 'malformed'],
    ['a token with a non-ASCII letter', '*:*.abcé', undefined, 'malformed'],
    ['an empty personal access token', 'user:', undefined, 'malformed'],
    ['a header longer than any secret', `*:*.${'a'.repeat(600)}`, undefined, 'malformed'],
    ['an admin token', '*:*.0123456789abcdef', undefined, 'unknown-api-token'],
    ['an admin token after Bearer', 'Bearer *:*.0123456789abcdef', undefined, 'unknown-api-token'],
    ['a project token of one environment', 'default:development.0123abcd', undefined, 'unknown-api-token'],
    ['a token of several projects', '[]:production.0123abcd', undefined, 'unknown-api-token'],
    ['an environment name with dots', 'default:prod.eu-1.0123abcd', undefined, 'unknown-api-token'],
    ['a personal access token', 'user:0123456789abcdef', undefined, 'unknown-personal-token'],
    ['a personal access token after bearer (any case)', 'bearer user:0123456789abcdef', undefined, 'unknown-personal-token'],
  ])('%s', (_label, header, sessionId, problem) => {
    expect(credentialProblem(header, sessionId)).toBe(problem);
  });
});

describe('credentialRefusal', () => {
  const problems: CredentialProblem[] = ['missing', 'malformed', 'unknown-api-token', 'unknown-personal-token', 'session-ended'];
  const doors: CredentialDoor[] = ['admin', 'client', 'frontend'];

  it('is a 401 AuthenticationRequired naming flagdeck, never Unleash, for every case at every door', () => {
    for (const door of doors) {
      for (const problem of problems) {
        const err = credentialRefusal(problem, door);
        expect([door, problem, err.name]).toEqual([door, problem, 'AuthenticationRequired']);
        expect(err.message).toMatch(/flagdeck/);
        expect(err.message).not.toMatch(/unleash/i);
      }
    }
  });

  it('gives each case its own message at each door', () => {
    for (const door of doors) {
      const messages = new Set(problems.map((p) => credentialRefusal(p, door).message));
      expect(messages.size).toBe(problems.length);
    }
  });

  it('tells each door what to send', () => {
    expect(credentialRefusal('missing', 'admin').message).toMatch(/sign in at \/auth\/simple\/login/);
    expect(credentialRefusal('missing', 'client').message).toMatch(/client token/);
    expect(credentialRefusal('missing', 'frontend').message).toMatch(/frontend token/);
    expect(credentialRefusal('malformed', 'admin').message).toMatch(/<project>:<environment>\.<secret>/);
  });
});
