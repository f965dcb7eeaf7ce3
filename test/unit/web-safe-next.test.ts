import { describe, expect, it } from '@jest/globals';
import { safeNextPath } from '../../web/src/logic/safe-next';

/** The login page's `next=` (web/src/logic/safe-next.ts): only a path of this app is followed after signing in. */
const next = (value: string | null) => safeNextPath(value, '/', '/login');

describe('where the login page goes once signed in', () => {
  it('follows a path of this app, with its query and fragment', () => {
    expect(next('/projects/default/features/a%2Fb?tab=history#event-3')).toBe('/projects/default/features/a%2Fb?tab=history#event-3');
    expect(next('/event-log')).toBe('/event-log');
    expect(next('/flags?q=a\\b')).toBe('/flags?q=a\\b');
  });

  it('goes where the browser would, not where the text seems to point', () => {
    expect(next('/projects/x/../../admin/users')).toBe('/admin/users');
  });

  it('takes the default without a next, or with one that is not a path', () => {
    expect(next(null)).toBe('/');
    expect(next('')).toBe('/');
    expect(next('projects')).toBe('/');
    expect(next('https://evil.example/')).toBe('/');
    expect(next('javascript:alert(1)')).toBe('/');
    expect(next(' /projects')).toBe('/');
  });

  it('refuses what the browser reads as another origin: two slashes, a backslash for a slash', () => {
    expect(next('//evil.example/')).toBe('/');
    expect(next('/\\evil.example/')).toBe('/');
    expect(next('\\\\evil.example/')).toBe('/');
    expect(next('/\\/evil.example/')).toBe('/');
    expect(next('/projects\\..\\..\\/evil.example')).toBe('/');
  });

  it('refuses a tab, a newline or any other control character, which the browser drops from an address', () => {
    expect(next('/\t/evil.example/')).toBe('/');
    expect(next('/\n/evil.example/')).toBe('/');
    expect(next('/\r\n/evil.example/')).toBe('/');
    expect(next('/projects\u0000')).toBe('/');
    expect(next('/projects?x=\u007f')).toBe('/');
  });

  it('never goes back to the login page itself', () => {
    expect(next('/login')).toBe('/');
    expect(next('/login?next=/projects')).toBe('/');
    expect(next('/login/')).toBe('/');
    expect(next('/projects/../login')).toBe('/');
    expect(next('/login-help')).toBe('/login-help');
  });
});
