import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fullGc, idleCollector, MEMORY_GC_MAX_GAP_MS, MEMORY_GC_WORTHWHILE_BYTES } from '../../src/idle-gc';

describe('idle garbage collection', () => {
  afterEach(() => { jest.useRealTimers(); });

  it('collects once, when no request came in for the idle time, and again only after new requests', () => {
    jest.useFakeTimers();
    const gc = jest.fn();
    const idle = idleCollector({ idleMs: 30_000, softLimitBytes: 0, gc, now: () => Date.now() });
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

  it('lets go of the answer caches just before the idle collection, and only then', () => {
    jest.useFakeTimers();
    const order: string[] = [];
    const idle = idleCollector({ idleMs: 30_000, softLimitBytes: 0, gc: () => order.push('gc'), onIdle: () => order.push('trim'), now: () => Date.now() });
    idle.touch();
    jest.advanceTimersByTime(29_000);
    idle.touch(); // still busy: the caches stay
    jest.advanceTimersByTime(29_000);
    expect(order).toEqual([]);
    jest.advanceTimersByTime(1_000);
    expect(order).toEqual(['trim', 'gc']);
    idle.stop();
  });

  describe('above the soft memory limit', () => {
    /** A collector over a fake clock, RSS and heap; a collection frees `state.frees` bytes of heap and sets the RSS to `afterGc`. */
    function busy(afterGc: number, frees = 2 * MEMORY_GC_WORTHWHILE_BYTES) {
      jest.useFakeTimers();
      const state = { now: 0, rss: 100, collections: 0, rssReads: 0, afterGc, frees, heap: 10 * MEMORY_GC_WORTHWHILE_BYTES };
      const gc = () => { state.collections += 1; state.rss = state.afterGc; state.heap -= state.frees; };
      const idle = idleCollector({
        idleMs: 1_000_000, softLimitBytes: 500, checkMs: 1_000, gapMs: 2_000, gc, now: () => state.now,
        rss: () => { state.rssReads += 1; return state.rss; }, heapUsed: () => state.heap,
      });
      /** Requests every `every` ms for `ms`, running what they scheduled. */
      const requests = (ms: number, every = 100) => {
        for (let t = 0; t < ms; t += every) { state.now += every; idle.touch(); jest.runOnlyPendingTimers(); }
      };
      return { state, idle, requests };
    }

    it('looks at the RSS at most once a second and collects, after the request, only when it is above the limit', () => {
      const { state, idle, requests } = busy(100);
      requests(10_000);
      expect(state.collections).toBe(0);
      expect(state.rssReads).toBe(10);
      state.rss = 600;
      requests(1_000);
      expect(state.collections).toBe(1);
      expect(state.rss).toBe(100);
      requests(10_000);
      expect(state.collections).toBe(1);
      idle.stop();
    });

    it('collects at most once per gap while garbage keeps coming back', () => {
      const { state, idle, requests } = busy(100);
      // Each second the heap is back above the limit (a burst of large answers): one collection per 2 s gap.
      for (let s = 0; s < 20; s++) { state.rss = 600; requests(1_000); }
      expect(state.collections).toBe(10);
      idle.stop();
    });

    it('a collection that frees little doubles the gap, up to the longest; one that frees enough resets it', () => {
      const { state, idle, requests } = busy(700, MEMORY_GC_WORTHWHILE_BYTES - 1); // live memory above the limit
      state.rss = 700;
      const at: number[] = [];
      for (let s = 0; s < 300; s++) { const before = state.collections; requests(1_000); if (state.collections > before) at.push(state.now); }
      const gaps = at.slice(1).map((t, i) => t - at[i]);
      // The first collection already leaves it above: the next waits 4 s, then 8 s, ... up to the longest.
      expect(gaps.slice(0, 6)).toEqual([4_000, 8_000, 16_000, 32_000, 64_000, MEMORY_GC_MAX_GAP_MS]);
      expect(Math.max(...gaps)).toBe(MEMORY_GC_MAX_GAP_MS);
      // Memory that can be freed again: the next collection (within the longest gap) frees it, and the gap is 2 s again.
      state.afterGc = 100;
      state.frees = MEMORY_GC_WORTHWHILE_BYTES;
      const count = state.collections;
      while (state.collections === count) { state.rss = 700; requests(1_000); }
      expect(state.now - at[at.length - 1]).toBeLessThanOrEqual(MEMORY_GC_MAX_GAP_MS);
      const freed = state.now;
      state.rss = 700;
      requests(2_000);
      expect([state.collections, state.now - freed]).toEqual([count + 2, 2_000]);
      idle.stop();
    });

    it('a limit of 0 never reads the RSS', () => {
      jest.useFakeTimers();
      const rss = jest.fn(() => 10 ** 12);
      const gc = jest.fn();
      const idle = idleCollector({ idleMs: 1_000_000, softLimitBytes: 0, gc, rss });
      for (let i = 0; i < 100; i++) { idle.touch(); jest.advanceTimersByTime(1_000); }
      expect(rss).not.toHaveBeenCalled();
      expect(gc).not.toHaveBeenCalled();
      idle.stop();
    });
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
