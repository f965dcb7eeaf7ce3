'use strict';
/**
 * `npm start`: the compiled service (dist/, which `npm install` builds through `prepare`) when it was built from the
 * sources as they are now; otherwise the TypeScript sources through tsx, compiled on the fly. So a start after an
 * install is quick (no compiler loads), and a start after editing or pulling sources never runs stale code.
 *
 * The build is current when dist/.build-stamp is at least as new as every file of src/ and the TypeScript and package
 * configuration (the stamp carries the time the build started, so an edit made during the build counts as newer).
 * FLAGDECK_RUN_SOURCES=1 runs the sources whatever the build.
 *
 * package.json's start script runs it with `--v8-pool-size=1`: one V8 worker thread (concurrent garbage collection and
 * compilation, PGlite's WebAssembly compiled in the background) instead of four. Each worker thread's malloc arena kept
 * the tens of MiB it used at start for the life of the process (bench:idle-memory).
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');

function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  visit(path.join(ROOT, 'src'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) newest = Math.max(newest, fs.statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

function buildIsCurrent() {
  if (process.env.FLAGDECK_RUN_SOURCES) return false;
  try {
    return fs.statSync(STAMP).mtimeMs >= newestSource() && fs.existsSync(path.join(ROOT, 'dist', 'src', 'main.js'));
  } catch {
    return false;
  }
}

/** The built UI is older than web/ (edited or pulled since): say so, as the service serves what was built. */
function warnIfUiIsStale() {
  const index = path.join(ROOT, 'dist', 'web', 'index.html');
  if (!fs.existsSync(index) || !fs.existsSync(path.join(ROOT, 'web'))) return;
  let newest = 0;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'gql') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  visit(path.join(ROOT, 'web'));
  if (newest > fs.statSync(index).mtimeMs) process.stderr.write('flagdeck: the web UI in dist/web is older than web/; `npm run build:web` brings it up to date.\n');
}

warnIfUiIsStale();
if (buildIsCurrent()) {
  require(path.join(ROOT, 'dist', 'src', 'main.js'));
} else {
  require('tsx/cjs/api').register();
  require(path.join(ROOT, 'src', 'main.ts'));
}
