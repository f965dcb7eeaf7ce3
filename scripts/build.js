'use strict';
/**
 * `npm run build`, and `prepare` (run by `npm install` and `npm ci`): compiles src/ into dist/ and writes
 * dist/.build-stamp, which scripts/start.js compares with the sources. The stamp gets the time the build started.
 *
 * `--if-possible` (prepare): without TypeScript (`npm ci --omit=dev`), or when the sources do not compile, it says so
 * and succeeds: `npm start` then runs the sources through tsx.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const lenient = process.argv.includes('--if-possible');

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
} catch {
  if (!lenient) throw new Error('typescript is not installed: npm install (with dev dependencies) first');
  process.stdout.write('flagdeck: no TypeScript compiler here (installed without dev dependencies); npm start runs the sources through tsx.\n');
  process.exit(0);
}

const started = new Date();
fs.rmSync(STAMP, { force: true });
const run = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) {
  if (!lenient) process.exit(run.status ?? 1);
  process.stdout.write('flagdeck: the sources did not compile; npm start runs them through tsx until `npm run build` succeeds.\n');
  process.exit(0);
}
fs.writeFileSync(STAMP, `${started.toISOString()}\n`);
fs.utimesSync(STAMP, started, started);
