import v8 from 'node:v8';
import vm from 'node:vm';

/** How long without a request before the one collection. */
export const IDLE_GC_MS = 30_000;

/**
 * V8's full garbage collector, without starting node with --expose-gc: the flag is set just long enough to read `gc`
 * from a fresh context, then cleared again (later contexts, e.g. a test runner's, see no `gc`).
 */
let collector: (() => void) | undefined;
export function fullGc(): () => void {
  collector ??= (globalThis as { gc?: () => void }).gc;
  if (collector) return collector;
  v8.setFlagsFromString('--expose-gc');
  try {
    collector = vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

export interface IdleCollector {
  /** A request came in. */
  touch(): void;
  stop(): void;
}

/** The memory above which a busy process collects fully now and then (MEMORY_SOFT_LIMIT_MB; 0 turns it off). */
export const MEMORY_SOFT_LIMIT_MB = 400;
/** How often a request looks at the RSS, and the least time between two collections for it. */
export const MEMORY_CHECK_MS = 1_000;
export const MEMORY_GC_GAP_MS = 2_000;
/** The longest gap: a collection that frees less than MEMORY_GC_WORTHWHILE_BYTES doubles the gap, up to this. */
export const MEMORY_GC_MAX_GAP_MS = 64_000;
export const MEMORY_GC_WORTHWHILE_BYTES = 32 * 2 ** 20;

export interface IdleCollectorOptions {
  idleMs?: number;
  /** RSS above which requests trigger a full collection (at most one per `gapMs`); 0: never. */
  softLimitBytes?: number;
  checkMs?: number;
  gapMs?: number;
  gc?: () => void;
  now?: () => number;
  rss?: () => number;
  /** Bytes in use in V8's heap. */
  heapUsed?: () => number;
  /** Run just before the idle collection: drops what is cheap to compute again (the answer caches), so it is freed too. */
  onIdle?: () => void;
}

/**
 * Full garbage collections when they give memory back:
 * - Once no request came in for `idleMs` after some did, after `onIdle` let go of the answer caches (whoever asks next
 *   computes a fresh answer; a cached 1000-feature answer holds megabytes of objects for nobody). V8 collects its old generation when it reaches a limit set
 *   from the live size (up to a few times it), so after a burst of large answers the heap holds hundreds of MiB of
 *   garbage; its memory reducer, which should collect that once the process is quiet, did so in only some of our idle
 *   measurements (bench:reads --idle 60: the RSS stayed up to 790 MiB). The collection costs a pause of tens of
 *   milliseconds, when nobody waits. One timer, rescheduled only when it fires.
 * - While busy, when the RSS is above `softLimitBytes`: a request looks at the RSS at most once per `checkMs`, and
 *   collects (right after its own synchronous work) at most once per `gapMs`. V8 otherwise lets garbage grow the heap
 *   to its own limit first (bench:reads on the embedded database: 636-639 MiB after the rows, 318 MiB of 350 MiB of
 *   heap in use). A collection that frees less than MEMORY_GC_WORTHWHILE_BYTES of heap (the memory above the limit is
 *   live, or outside V8's heap) doubles the gap, up to MEMORY_GC_MAX_GAP_MS; one that frees more resets it.
 */
export function idleCollector({
  idleMs = IDLE_GC_MS, softLimitBytes = MEMORY_SOFT_LIMIT_MB * 2 ** 20, checkMs = MEMORY_CHECK_MS, gapMs = MEMORY_GC_GAP_MS,
  gc = fullGc(), now = Date.now, rss = () => process.memoryUsage.rss(), heapUsed = () => v8.getHeapStatistics().used_heap_size, onIdle,
}: IdleCollectorOptions = {}): IdleCollector {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  let checked = -Infinity;
  let collected = -Infinity;
  let gap = gapMs;
  const check = () => {
    const quiet = now() - last;
    if (quiet >= idleMs) {
      timer = undefined;
      onIdle?.();
      gc();
    } else {
      timer = setTimeout(check, idleMs - quiet).unref();
    }
  };
  return {
    touch() {
      const t = now();
      last = t;
      timer ??= setTimeout(check, idleMs).unref();
      if (softLimitBytes > 0 && t - checked >= checkMs) {
        checked = t;
        if (t - collected >= gap && rss() > softLimitBytes) {
          collected = t;
          setImmediate(() => {
            const before = heapUsed();
            gc();
            // Little garbage found: the memory above the limit is live or outside V8's heap, so collecting again soon
            // would free little. (Not the RSS: V8 hands swept pages back after the collection returns.)
            gap = before - heapUsed() < MEMORY_GC_WORTHWHILE_BYTES ? Math.min(gap * 2, MEMORY_GC_MAX_GAP_MS) : gapMs;
          });
        }
      }
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
