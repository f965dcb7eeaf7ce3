// Where the login page goes once signed in, from its `next=` parameter. Unit tested in test/unit/web-safe-next.test.ts.
//
// `next` comes from the address bar, so anyone can write it: only a path of this app is followed. Browsers forgive a
// lot in an address: they drop tabs and newlines anywhere in it, skip leading control characters and spaces, and read
// a backslash as a slash, so `/\evil.example/` or `/<tab>/evil.example` are `//evil.example/`, another origin. The
// router refuses to go there and the user stayed on the login page; those are refused here and the default taken.

/** Any C0 control character or DEL: never part of a path this app writes (its links percent-encode them). */
const CONTROL = /[\u0000-\u001f\u007f]/;
/** An origin no address of this app has: a path resolved against it that leaves it names another origin. */
const BASE = 'https://flagdeck.invalid';

/**
 * The path to go to after signing in: `next` when it is a path of this app, the path the browser would go to
 * (`/a/../b` is `/b`); else `fallback`. The login page itself (`loginPath`, or below it) is refused, never a loop.
 */
export function safeNextPath(next: string | null | undefined, fallback: string, loginPath: string): string {
  if (!next || !next.startsWith('/') || CONTROL.test(next)) return fallback;
  // In the path part a backslash is a slash to the browser: `/\host` is `//host`. After `?` or `#` it is only a character.
  const pathPart = next.split(/[?#]/, 1)[0];
  if (pathPart.startsWith('//') || pathPart.includes('\\')) return fallback;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  if (url.pathname === loginPath || url.pathname.startsWith(`${loginPath}/`)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
