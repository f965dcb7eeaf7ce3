/** One server-sent event as a plain reader sees it. */
export interface SseEvent { event?: string; id?: string; data?: string }

/**
 * A server-sent-events reader over fetch: `next()` gives the stream's events one at a time ('end' when the server
 * closed it, 'timeout' when none came in time); comment lines (`: keep-alive`) are collected apart.
 */
export async function openSse(url: string, headers: Record<string, string>, init: { method?: string } = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal, ...init });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const comments: string[] = [];
  // A read that lost its race against a timeout is kept for the next call: its chunk must not be dropped.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  async function next(timeoutMs = 3000): Promise<SseEvent | 'end' | 'timeout'> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const cut = buffer.indexOf('\n\n');
      if (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const out: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) { comments.push(line); continue; }
          const colon = line.indexOf(':');
          out[line.slice(0, colon)] = (out[line.slice(0, colon)] ?? '') + line.slice(colon + 2);
        }
        if (Object.keys(out).length === 0) continue;
        return out;
      }
      if (ended) return 'end';
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      let timer: NodeJS.Timeout | undefined;
      pending ??= reader.read();
      const chunk = await Promise.race([pending, new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), left); })]);
      clearTimeout(timer);
      if (chunk === 'timeout') return 'timeout';
      pending = undefined;
      if (chunk.done) ended = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  }
  /** The next event, which must come: its name, id and parsed data. */
  async function expectEvent(timeoutMs = 3000): Promise<{ event?: string; id?: string; data: any }> {
    const got = await next(timeoutMs);
    if (typeof got === 'string') throw new Error(`expected an event, got ${got}`);
    return { event: got.event, id: got.id, data: got.data === undefined ? undefined : JSON.parse(got.data) };
  }
  return { res, next, expectEvent, comments, close: () => controller.abort() };
}
