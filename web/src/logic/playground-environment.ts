// The environment the playground starts on (issue 44): the one of the user's last evaluation, remembered in this
// browser, while it is still enabled; else the first enabled environment, in the service's order. A playground that
// starts on an environment can evaluate at once, instead of showing a disabled Evaluate button. Unit tested in
// test/unit/web-playground-environment.test.ts.

/** Where the browser keeps the environment of the last evaluation. */
export const REMEMBERED_ENVIRONMENT_KEY = 'flagdeck.playground.environment';

/** What is used of the browser's `localStorage`: a stand-in in tests. */
export type EnvironmentMemory = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The browser's storage, or null where there is none: reading `localStorage` itself throws when the browser refuses
 * storage to the page (a blocked-cookies setting), and there is no `localStorage` outside a browser.
 */
function browserStorage(): EnvironmentMemory | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The environment to start on: `remembered` when it is one of `enabled`, else the first of `enabled`; null if none. */
export function startEnvironment(enabled: readonly string[], remembered: string | null): string | null {
  if (remembered !== null && enabled.includes(remembered)) return remembered;
  return enabled[0] ?? null;
}

/** The environment of the last evaluation in this browser, if it kept one. */
export function rememberedEnvironment(memory: EnvironmentMemory | null = browserStorage()): string | null {
  try {
    return memory?.getItem(REMEMBERED_ENVIRONMENT_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Keeps `name` as the environment of the last evaluation; a browser that refuses (storage full or off) forgets it. */
export function rememberEnvironment(name: string, memory: EnvironmentMemory | null = browserStorage()): void {
  try {
    memory?.setItem(REMEMBERED_ENVIRONMENT_KEY, name);
  } catch {
    // Nothing to do: the next visit starts on the first enabled environment.
  }
}
