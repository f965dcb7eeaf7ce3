'use strict';
/**
 * Preloaded (NODE_OPTIONS=--require) into a service started by bench/client-deltas.ts: answers the parent's 'cpu'
 * message over the IPC channel with process.cpuUsage() (microseconds, finer than /proc's clock ticks). Inert without
 * an IPC channel.
 */
if (process.send && process.channel) {
  process.on('message', (msg) => {
    if (msg === 'cpu') process.send({ cpu: process.cpuUsage() });
  });
  process.channel.unref(); // after the listener (adding one refs the channel): it never keeps the service alive
}
