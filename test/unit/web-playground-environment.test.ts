import { describe, expect, it } from '@jest/globals';
import {
  REMEMBERED_ENVIRONMENT_KEY, rememberedEnvironment, rememberEnvironment, startEnvironment, type EnvironmentMemory,
} from '../../web/src/logic/playground-environment';

/** The environment the playground starts on (web/src/logic/playground-environment.ts). */

/** A browser's storage as far as the playground uses it. */
function memory(): EnvironmentMemory & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => { items.set(key, value); } };
}

/** A browser that refuses storage to the page: every call throws, as Chromium's SecurityError does. */
const refusing: EnvironmentMemory = {
  getItem: () => { throw new Error('SecurityError'); },
  setItem: () => { throw new Error('QuotaExceededError'); },
};

describe('the environment the playground starts on', () => {
  it('is the remembered one while it is enabled, else the first enabled one, else none', () => {
    expect(startEnvironment(['development', 'production'], 'production')).toBe('production');
    expect(startEnvironment(['development', 'production'], null)).toBe('development');
    // Disabled or removed since: the first enabled one instead.
    expect(startEnvironment(['development', 'production'], 'staging')).toBe('development');
    expect(startEnvironment([], 'production')).toBeNull();
    expect(startEnvironment([], null)).toBeNull();
  });

  it('is remembered from one visit to the next', () => {
    const browser = memory();
    expect(rememberedEnvironment(browser)).toBeNull();
    rememberEnvironment('production', browser);
    expect(browser.items.get(REMEMBERED_ENVIRONMENT_KEY)).toBe('production');
    expect(rememberedEnvironment(browser)).toBe('production');
    expect(startEnvironment(['development', 'production'], rememberedEnvironment(browser))).toBe('production');
  });

  it('is the first enabled one where the browser keeps nothing, without failing', () => {
    expect(() => rememberEnvironment('production', refusing)).not.toThrow();
    expect(rememberedEnvironment(refusing)).toBeNull();
    expect(startEnvironment(['development'], rememberedEnvironment(refusing))).toBe('development');
  });
});
