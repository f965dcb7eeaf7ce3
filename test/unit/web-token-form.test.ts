import { describe, expect, it } from '@jest/globals';
import {
  creatableTokenTypes, environmentLabel, isExpired, projectsLabel, tokenDraftProblems, tokenInput, tokenUsage, type TokenDraft,
} from '../../web/src/logic/token-form';

const draft = (patch: Partial<TokenDraft> = {}): TokenDraft => ({ name: 'checkout-service', type: 'client', projects: [], environment: 'development', expiresAt: '', ...patch });
const NOW = Date.parse('2030-01-01T00:00:00Z');

describe('web API token form logic', () => {
  it('offers only the types the user may create, in a fixed order', () => {
    const held = (names: string[]) => (p: string) => names.includes(p);
    expect(creatableTokenTypes(held(['ADMIN', 'CREATE_CLIENT_API_TOKEN', 'CREATE_FRONTEND_API_TOKEN']))).toEqual(['client', 'frontend', 'admin']);
    expect(creatableTokenTypes(held(['CREATE_FRONTEND_API_TOKEN']))).toEqual(['frontend']);
    expect(creatableTokenTypes(held(['CREATE_CLIENT_API_TOKEN', 'READ_CLIENT_API_TOKEN']))).toEqual(['client']);
    expect(creatableTokenTypes(held(['READ_CLIENT_API_TOKEN']))).toEqual([]);
  });

  it('sends every project as `*`, the chosen ones otherwise, and no project or environment for an admin token', () => {
    expect(tokenInput(draft({ name: '  svc  ' }))).toEqual({ tokenName: 'svc', type: 'client', projects: ['*'], environment: 'development' });
    expect(tokenInput(draft({ type: 'frontend', projects: ['a', 'b', 'a'], environment: 'production' })))
      .toEqual({ tokenName: 'checkout-service', type: 'frontend', projects: ['a', 'b'], environment: 'production' });
    expect(tokenInput(draft({ type: 'admin', projects: ['a'], environment: 'development' }))).toEqual({ tokenName: 'checkout-service', type: 'admin' });
    expect(tokenInput(draft({ expiresAt: '2031-02-03T04:05:00.000Z' })).expiresAt).toBe('2031-02-03T04:05:00.000Z');
  });

  it('refuses a blank name, a missing environment (not for admin) and an expiry that is not in the future', () => {
    expect(tokenDraftProblems(draft(), NOW)).toEqual({});
    expect(tokenDraftProblems(draft({ name: '  ' }), NOW).name).toMatch(/name/);
    expect(tokenDraftProblems(draft({ name: 'x'.repeat(201) }), NOW).name).toMatch(/200/);
    expect(tokenDraftProblems(draft({ environment: '' }), NOW).environment).toMatch(/client token reads one environment/);
    expect(tokenDraftProblems(draft({ type: 'admin', environment: '' }), NOW)).toEqual({});
    expect(tokenDraftProblems(draft({ expiresAt: '2029-12-31T23:59:00Z' }), NOW).expiresAt).toMatch(/future/);
    expect(tokenDraftProblems(draft({ expiresAt: 'soon' }), NOW).expiresAt).toMatch(/Not a date/);
    expect(tokenDraftProblems(draft({ expiresAt: '2030-06-01T00:00:00Z' }), NOW)).toEqual({});
  });

  it('labels every project and environment, and tells an expired token', () => {
    expect(projectsLabel(['*'])).toBe('All projects');
    expect(projectsLabel(['a', 'b'])).toBe('a, b');
    expect(environmentLabel('*')).toBe('All environments');
    expect(environmentLabel('production')).toBe('production');
    expect(isExpired(null, NOW)).toBe(false);
    expect(isExpired('2029-01-01T00:00:00Z', NOW)).toBe(true);
    expect(isExpired('2031-01-01T00:00:00Z', NOW)).toBe(false);
  });

  it('says where each type of token goes, with an example holding the secret', () => {
    const client = tokenUsage('client', 'https://flags.example.com/', 'default:development.abc');
    expect(client.endpoint).toBe('https://flags.example.com/api/client');
    expect(client.setting).toMatch(/customHeaders\.Authorization/);
    expect(client.example).toBe(`new Unleash({ url: "https://flags.example.com/api", appName: 'my-app', customHeaders: { Authorization: "default:development.abc" } })`);
    const frontend = tokenUsage('frontend', 'https://flags.example.com');
    expect(frontend).toMatchObject({ setting: 'clientKey', endpoint: 'https://flags.example.com/api/frontend' });
    expect(frontend.example).toContain('clientKey: "<secret>"');
    const admin = tokenUsage('admin', 'http://localhost:4242', '*:*.x');
    expect(admin).toMatchObject({ setting: expect.stringMatching(/Authorization header/), endpoint: 'http://localhost:4242/api/admin' });
    expect(admin.example).toBe('curl -H "Authorization: *:*.x" http://localhost:4242/api/admin/projects');
  });
});
