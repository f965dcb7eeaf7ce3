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

/**
 * One full garbage collection once no request came in for `idleMs` after some did. V8 collects its old generation
 * when it reaches a limit set from the live size (up to a few times it), so after a burst of large answers the heap
 * holds hundreds of MiB of garbage; its memory reducer, which should collect that once the process is quiet, did so in
 * only some of our idle measurements (bench:reads --idle 60: the RSS stayed up to 790 MiB). The collection costs a
 * pause of tens of milliseconds, when nobody waits. One timer, rescheduled only when it fires.
 */
export function idleCollector({ idleMs = IDLE_GC_MS, gc = fullGc(), now = Date.now }: { idleMs?: number; gc?: () => void; now?: () => number } = {}): IdleCollector {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const quiet = now() - last;
    if (quiet >= idleMs) {
      timer = undefined;
      gc();
    } else {
      timer = setTimeout(check, idleMs - quiet).unref();
    }
  };
  return {
    touch() {
      last = now();
      timer ??= setTimeout(check, idleMs).unref();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
