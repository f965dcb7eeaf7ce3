import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fullGc, idleCollector } from '../../src/idle-gc';

describe('idle garbage collection', () => {
  afterEach(() => { jest.useRealTimers(); });

  it('collects once, when no request came in for the idle time, and again only after new requests', () => {
    jest.useFakeTimers();
    const gc = jest.fn();
    const idle = idleCollector({ idleMs: 30_000, gc, now: () => Date.now() });
    jest.advanceTimersByTime(120_000);
    expect(gc).not.toHaveBeenCalled(); // no request yet: nothing to collect after

    idle.touch();
    jest.advanceTimersByTime(20_000);
    idle.touch(); // a request 20 s in: quiet again from here
    jest.advanceTimersByTime(29_000);
    expect(gc).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1_000);
    expect(gc).toHaveBeenCalledTimes(1);

    jest.advanceTimersByTime(300_000);
    expect(gc).toHaveBeenCalledTimes(1);
    idle.touch();
    jest.advanceTimersByTime(30_000);
    expect(gc).toHaveBeenCalledTimes(2);

    idle.touch();
    idle.stop();
    jest.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('reaches V8\'s full collector without --expose-gc, and leaves no `gc` global behind', async () => {
    let ref: WeakRef<object> | undefined;
    (() => { ref = new WeakRef({ garbage: 'x'.repeat(1000) }); })();
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef keeps its target until the current job ends
    fullGc()();
    expect(ref!.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
