'use strict';
/**
 * `npm run build`, and `prepare` (run by `npm install` and `npm ci`): compiles src/ into dist/, makes the embedded
 * database's template data folder (dist/pglite-template) and writes dist/.build-stamp, which scripts/start.js compares
 * with the sources. The stamp gets the time the build started.
 * Then the web UI (web/): its typed GraphQL documents (graphql-codegen) and its bundle (vite) into dist/web, which the
 * service serves at `/`. `--web-only` builds only the UI.
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
const webOnly = process.argv.includes('--web-only');

/** The UI: typed documents from schema/schema.graphql, then the bundle. Both tools are dev dependencies. */
function buildWeb() {
  let codegen;
  let vite;
  try {
    const bin = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [ROOT] })), file);
    codegen = bin('@graphql-codegen/cli', 'cjs/bin.js');
    vite = bin('vite', 'bin/vite.js');
  } catch {
    if (!lenient) throw new Error('the web UI needs its build tools: npm install (with dev dependencies) first');
    process.stdout.write('flagdeck: no web UI build tools here (installed without dev dependencies); / says the UI is not built.\n');
    return;
  }
  for (const args of [[codegen, '--config', 'codegen.ts', '--silent'], [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']]) {
    const step = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    if (step.status !== 0) {
      if (!lenient) process.exit(step.status ?? 1);
      process.stdout.write('flagdeck: the web UI did not build; / says so until `npm run build` succeeds.\n');
      return;
    }
  }
  process.stdout.write(`flagdeck: web UI built; its first route loads ${firstRouteKb()} kB of JavaScript, gzipped (goal: at most 300)\n`);
}

/** The gzipped size of the JavaScript a first visit loads: the scripts and module preloads dist/web/index.html names. */
function firstRouteKb() {
  const web = path.join(ROOT, 'dist', 'web');
  const html = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
  const files = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const bytes = [...files].reduce((sum, f) => sum + require('node:zlib').gzipSync(fs.readFileSync(path.join(web, f))).length, 0);
  return (bytes / 1024).toFixed(1);
}

/**
 * The embedded database's template (src/db/embedded-template.ts): a data folder initialised and migrated once, which a
 * first start copies instead of running initdb and the migrations. Without it a first start does that work itself.
 */
function buildTemplate() {
  const module = path.join(ROOT, 'dist', 'src', 'db', 'embedded-template.js');
  const step = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(module)}).buildTemplate().then((dir) => { if (!dir) console.log('flagdeck: a migration needs a database to say what it runs, so no template of the embedded database: a first start initialises it.'); }, (err) => { console.error(err); process.exit(1); })`], { cwd: ROOT, stdio: 'inherit' });
  if (step.status !== 0) {
    if (!lenient) process.exit(step.status ?? 1);
    process.stdout.write('flagdeck: the template of the embedded database was not made; a first start initialises the database itself.\n');
  }
}

if (webOnly) {
  buildWeb();
  process.exit(0);
}

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
  buildWeb();
  process.exit(0);
}
buildTemplate();
fs.writeFileSync(STAMP, `${started.toISOString()}\n`);
fs.utimesSync(STAMP, started, started);
buildWeb();
