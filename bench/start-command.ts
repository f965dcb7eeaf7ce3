/** What `npm start` runs, for the benches that start the service as it does: `node <options> scripts/start.js`. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** The arguments after `node` of package.json's start script (its node options and the launcher). */
export function startArguments(): string[] {
  const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'scripts/start.js') throw new Error(`unexpected start script: ${script}`);
  return [...words.slice(1, -1), path.join(ROOT, 'scripts/start.js')];
}
