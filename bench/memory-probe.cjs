'use strict';
/**
 * Preloaded (NODE_OPTIONS=--require) into a service started by bench/idle-memory.ts: answers the parent's 'memory'
 * message (and 'snapshot': writes a heap snapshot, answers its file name) over the IPC channel with process.memoryUsage(), V8's heap statistics and
 * the size of the WebAssembly memories made since it loaded. Inert without an IPC channel.
 */
const v8 = require('node:v8');

// PGlite creates its WebAssembly memory in JavaScript: keep a weak reference to each one made, to report their size.
const memories = [];
const OriginalMemory = WebAssembly.Memory;
WebAssembly.Memory = new Proxy(OriginalMemory, {
  construct(target, args, newTarget) {
    const memory = Reflect.construct(target, args, newTarget);
    memories.push(new WeakRef(memory));
    return memory;
  },
});
const wasmBytes = () => memories.reduce((sum, ref) => sum + (ref.deref()?.buffer.byteLength ?? 0), 0);

if (process.send && process.channel) {
  process.on('message', (msg) => {
    if (msg === 'memory') process.send({ memory: process.memoryUsage(), heap: v8.getHeapStatistics(), wasm: wasmBytes() });
    if (msg === 'snapshot') process.send({ snapshot: v8.writeHeapSnapshot() });
  });
  process.channel.unref(); // after the listener (adding one refs the channel): it never keeps the service alive
}
