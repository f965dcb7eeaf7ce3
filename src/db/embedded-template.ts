import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pidAlive, startEmbeddedDatabase } from './embedded';
import { syncPath, syncTree } from './sync';
import { migrationsList } from './migrations';
import { openOrm } from './orm';

/**
 * A new embedded data folder starts as a copy of a template: a PGlite folder initialised and migrated once, by
 * `npm run build` (and so by `npm install`), instead of initdb and every migration at the first start (most of its
 * time). The template is named by a key of everything its content depends on: the PGlite release and the SQL of
 * every migration, in order. A migration added, removed, reordered or edited changes the key, so a stale template is
 * never used: the first start then initialises and migrates as before.
 */

/** Where the templates are kept: dist/pglite-template, from src/db or dist/src/db alike (beside the build). */
export const TEMPLATE_ROOT = path.resolve(__dirname, '../..', __dirname.includes(`${path.sep}dist${path.sep}`) ? '' : 'dist', 'pglite-template');

/** Bumped when the way a template is made changes (a template made the old way then no longer matches). */
const TEMPLATE_FORMAT = 1;

export function pgliteVersion(): string {
  // The package's exports do not include its package.json; it sits one level above its entry (dist/index.cjs).
  const file = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * The key of the template the current code would make, or undefined when it cannot be known without a database: each
 * migration says what it runs through `addSql` (its `up` is called without a database and its statements collected);
 * one that needs the database to decide (or adds anything but SQL text) gets no template.
 */
export async function templateKey(): Promise<string | undefined> {
  const hash = createHash('sha256');
  hash.update(`format ${TEMPLATE_FORMAT}\0pglite ${pgliteVersion()}\0`);
  for (const { name, class: MigrationClass } of migrationsList) {
    const migration = new MigrationClass(undefined as never, undefined as never);
    try {
      await migration.up();
    } catch {
      return undefined;
    }
    const statements = migration.getQueries();
    if (statements.some((sql) => typeof sql !== 'string')) return undefined;
    hash.update(`${name}\0${statements.join('\0')}\0\0`);
  }
  return hash.digest('hex').slice(0, 24);
}

/** The template folder for the current migrations, when one was made; undefined otherwise (initdb and migrate). */
export async function findTemplate(): Promise<string | undefined> {
  const key = await templateKey();
  if (!key) return undefined;
  const dir = path.join(TEMPLATE_ROOT, key);
  // Made under a temporary name and renamed into place: a folder with this name is complete.
  return existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

/**
 * Makes the template of the current migrations (when it does not exist yet) and removes the others; returns its
 * folder, or undefined when the migrations allow none. The work happens in `.build-<pid>-*` beside it, flushed to disk
 * before the rename, so a build killed midway leaves no folder that passes for a template (and the next build removes
 * what it left).
 */
export async function buildTemplate(): Promise<string | undefined> {
  const key = await templateKey();
  if (!key) return undefined;
  const target = path.join(TEMPLATE_ROOT, key);
  mkdirSync(TEMPLATE_ROOT, { recursive: true });
  for (const name of readdirSync(TEMPLATE_ROOT)) {
    const build = /^\.build-(\d+)-/.exec(name);
    if (name !== key && (!build || !pidAlive(Number(build[1])))) rmSync(path.join(TEMPLATE_ROOT, name), { recursive: true, force: true });
  }
  if (existsSync(path.join(target, 'PG_VERSION'))) return target;
  const work = mkdtempSync(path.join(TEMPLATE_ROOT, `.build-${process.pid}-`));
  try {
    const db = await startEmbeddedDatabase(work);
    try {
      const orm = await openOrm({ url: db.url, poolMax: 1, holdConnection: true });
      await orm.close(true);
    } finally {
      await db.stop(); // a clean shutdown: checkpointed, nothing to replay when a copy is opened
    }
    const made = path.join(work, 'pglite');
    syncTree(made);
    try {
      renameSync(made, target);
    } catch (err) {
      // Another build made it at the same time: theirs is as good.
      if (!existsSync(path.join(target, 'PG_VERSION'))) throw err;
    }
    syncPath(TEMPLATE_ROOT);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}
