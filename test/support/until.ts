/** Polls `check` every 20 ms until it returns something truthy, which it returns (for work done on a timer, such as the metrics flush). */
export async function until<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
