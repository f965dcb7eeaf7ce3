import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  /** Connection URL for the PostgreSQL driver: the unix socket directory as the host. */
  url: string;
  /** Directory holding the socket `.s.PGSQL.5432`. */
  socketDir: string;
  /** Size of PGlite's WebAssembly memory in bytes (it grows, never shrinks; benches report it). */
  wasmMemoryBytes(): number;
  stop(): Promise<void>;
}

/** A start-up problem the operator must act on; main prints the message alone (no stack) and exits 1. */
export class StartupError extends Error {
  override name = 'StartupError';
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two processes on one PGlite data folder corrupt it: hold a pid lock file for the lifetime of the server. */
function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'flagdeck.lock');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid && pid !== process.pid && pidAlive(pid)) {
      throw new StartupError(`the data folder ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
    }
    unlinkSync(file);
  }
  const fd = openSync(file, 'wx', 0o600);
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
  return () => {
    try { unlinkSync(file); } catch { /* already gone */ }
  };
}

/** fsync every file under `dir` and the directories themselves (iterative: the tree is PGlite's, not the user's). */
function syncTree(dir: string): void {
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) syncPath(full);
    }
    syncPath(current);
  }
}

function syncPath(p: string): void {
  const fd = openSync(p, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

/**
 * Defect 2 of issue 8: a kill during initdb left a half-made folder that failed on every later start. The first
 * start now initialises `pglite.init-<pid>` beside the real folder, flushes it to disk and renames it into place:
 * the real folder either does not exist or is complete. Leftovers of dead processes are removed.
 */
async function initialiseAtomically(dataDir: string, target: string): Promise<void> {
  for (const name of readdirSync(dataDir)) {
    const match = /^pglite\.init-(\d+)$/.exec(name);
    if (match && (Number(match[1]) === process.pid || !pidAlive(Number(match[1])))) rmSync(path.join(dataDir, name), { recursive: true, force: true });
  }
  const temporary = path.join(dataDir, `pglite.init-${process.pid}`);
  const db = await PGlite.create(temporary);
  await db.query('select 1');
  await db.close();
  syncTree(temporary);
  renameSync(temporary, target);
  syncPath(dataDir);
}

function damaged(dir: string, cause: unknown): StartupError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StartupError(
    `the embedded database in ${dir} cannot be opened (${reason.split('\n')[0]}). The folder is damaged, for example by a ` +
    `crash of the machine while it was written. Move it aside and start again to get a new, empty database:\n` +
    `    mv "${dir}" "${dir}.damaged-${new Date().toISOString().slice(0, 10)}"\n` +
    `or set DATA_DIR to another folder. Keep the moved folder if you need to recover its data with PostgreSQL tools.`);
}

/** Opens an existing folder and proves its catalog is whole; anything else is reported as a damaged folder. */
async function openExisting(dir: string): Promise<PGlite> {
  let db: PGlite | undefined;
  try {
    db = await PGlite.create(dir);
    await db.query('select count(*) from information_schema.tables');
    return db;
  } catch (err) {
    try { await db?.close(); } catch { /* already broken */ }
    throw damaged(dir, err);
  }
}

/** Longest unix socket path (sun_path is 108 bytes on Linux, 104 on macOS), with room to spare. */
const MAX_SOCKET_PATH = 100;

/**
 * PGlite (PostgreSQL compiled to WASM) in `dataDir/pglite`, served over the PostgreSQL wire protocol on a unix
 * socket inside the data folder (issue 8, defect 1): no TCP port, the folder 0700 and the socket 0600, so only the
 * owner of the process can connect, and the socket takes one connection at a time, which the service's pool holds for
 * its whole life. `dataDir` undefined keeps the database in memory (tests), with the socket in a private temporary
 * folder; so does a data folder whose socket path would be too long for a unix socket.
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  let release = () => {};
  let db: PGlite;
  let socketDir: string;
  let ownSocketDir = false;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
    release = acquireLock(dataDir);
    try {
      const dir = path.join(dataDir, 'pglite');
      if (!existsSync(dir)) await initialiseAtomically(dataDir, dir);
      db = await openExisting(dir);
    } catch (err) {
      release();
      throw err;
    }
    socketDir = dataDir;
  } else {
    db = await PGlite.create();
    socketDir = '';
  }
  if (!socketDir || path.join(socketDir, '.s.PGSQL.5432').length > MAX_SOCKET_PATH) {
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-db-'));
    ownSocketDir = true;
  }
  const socketPath = path.join(socketDir, '.s.PGSQL.5432');
  // Ours to replace: the pid lock proves no live process serves this folder.
  rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  const umask = process.umask(0o077);
  try {
    await server.start();
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  return {
    url: `postgresql://postgres@${encodeURIComponent(socketDir)}:5432/postgres`,
    socketDir,
    wasmMemoryBytes: () => db.Module.HEAP8.buffer.byteLength,
    async stop() {
      await server.stop();
      await db.close();
      rmSync(socketPath, { force: true });
      if (ownSocketDir) rmSync(socketDir, { recursive: true, force: true });
      release();
    },
  };
}
