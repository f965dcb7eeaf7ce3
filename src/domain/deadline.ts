/** What `withinMs` gives when the promise has not settled in time. */
export const LATE = Symbol('late');

/** The promise's value, or LATE once `ms` have passed first (the promise is left to settle; its rejection is the caller's). */
export function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => { timer = setTimeout(() => resolve(LATE), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
