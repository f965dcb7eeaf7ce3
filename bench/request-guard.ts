/**
 * Cost of the door's JSON check (src/request-guard.ts findJsonIssue: UTF-8 validation plus one pass over the bytes for
 * NUL, lone surrogates and nesting) on 100 kB bodies of three shapes, next to JSON.parse of the same body (which every
 * request pays anyway), and of the URL check on a typical query string. Prints microseconds per call (median of runs).
 * Usage: npm run bench:guard [-- --seconds 1]
 */
import { checkUrl, findJsonIssue } from '../src/request-guard';

const args = process.argv.slice(2);
const seconds = Number(args.includes('--seconds') ? args[args.indexOf('--seconds') + 1] : '1');
const LIMIT = 100 * 1024;

function fill(make: (i: number) => unknown): Buffer {
  const items: unknown[] = [];
  let size = 2;
  for (let i = 0; size < LIMIT - 200; i++) {
    const item = make(i);
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return Buffer.from(JSON.stringify({ items }));
}

const bodies: Array<[string, Buffer]> = [
  // Many short fields: a constraint-heavy strategy list.
  ['structured (constraints)', fill((i) => ({ contextName: `field${i % 20}`, operator: 'IN', values: [`v${i}`, `w${i}`], caseInsensitive: false, inverted: false }))],
  // One long text: a description-like string.
  ['one long string', Buffer.from(JSON.stringify({ name: 'x', description: 'lorem ipsum dolor sit amet '.repeat(LIMIT / 27 - 10) }))],
  // Non-ASCII text with escapes and surrogate pairs.
  ['escapes and non-ASCII', fill((i) => ({ value: `caf\u00e9 \u00fc\u00df \u{1F600} "q" \\ ${i}`, escaped: '\\ud83d\\ude00' }))],
  // A typical request: one strategy with parameters, a constraint and a variant (about 400 bytes).
  ['typical strategy body', Buffer.from(JSON.stringify({
    name: 'flexibleRollout', title: 'Rollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b', 'c'], caseInsensitive: false, inverted: false }],
    variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }],
  }))],
];

function time(fn: () => void): number {
  // Warm up, then the median of rounds of 1000 calls.
  for (let i = 0; i < 200; i++) fn();
  const rounds: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    for (let i = 0; i < 100; i++) fn();
    rounds.push(((performance.now() - start) * 1000) / 100);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)];
}

console.log(`node ${process.version}; microseconds per call (median)`);
for (const [label, bytes] of bodies) {
  if (findJsonIssue(bytes) !== null) throw new Error(`benchmark body "${label}" has an issue`);
  const guard = time(() => findJsonIssue(bytes));
  const parse = time(() => JSON.parse(bytes.toString('utf8')));
  console.log(`${label.padEnd(26)} ${bytes.length} B   door check ${guard.toFixed(1)} µs   JSON.parse (with decoding) ${parse.toFixed(1)} µs`);
}
const url = '/api/admin/events?type=feature-created&project=default&feature=my%2Dfeature&limit=100';
console.log(`URL check (${url}): ${time(() => checkUrl(url)).toFixed(2)} µs`);
