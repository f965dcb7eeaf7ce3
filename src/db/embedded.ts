import { chmodSync, closeSync, constants as fsConstants, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type Extension, type postgresMod } from '@electric-sql/pglite';
import { copyDataFolder, type DataSnapshot } from './embedded-snapshot';
import { serveWire, type PgliteCallbacks, type WireBackend } from './embedded-wire';
import { syncPath, syncTree } from './sync';

export interface EmbeddedDatabase {
  /** Connection URL for the PostgreSQL driver: the unix socket directory as the host. */
  url: string;
  /** Directory holding the socket `.s.PGSQL.5432`. */
  socketDir: string;
  /** How this start found the data folder: made from the template, made by initdb, or there already (or in memory). */
  created: 'template' | 'initdb' | undefined;
  /** Size of PGlite's WebAssembly memory in bytes (it grows, never shrinks; benches report it). */
  wasmMemoryBytes(): number;
  /**
   * Looks after the database now (checkpoint, vacuum and analyse as needed; done every MAINTENANCE_MS anyway): the
   * statements it ran, or undefined when a client exchange was in progress.
   */
  maintain(): string[] | undefined;
  /**
   * An online copy of the database's files (src/db/embedded-snapshot.ts). `whileHeld(job)` must run `job` while the
   * caller holds the pool's only connection, so that no client exchange is in progress; maintenance waits meanwhile.
   */
  copy(whileHeld: <T>(job: () => T) => Promise<T>): Promise<DataSnapshot>;
  stop(): Promise<void>;
}

/** A start-up problem the operator must act on; main prints the message alone (no stack) and exits 1. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Another live process (a running service, or a command-line tool) holds the data folder. */
export class DataFolderInUseError extends StartupError {
  constructor(readonly dir: string, readonly pid: number) {
    super(`the data folder ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two processes on one PGlite data folder corrupt it: hold a pid lock file for the lifetime of the server. */
export function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'flagdeck.lock');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid && pid !== process.pid && pidAlive(pid)) {
      throw new DataFolderInUseError(dir, pid);
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

/**
 * PGlite starts PostgreSQL with command-line settings compiled into its WASM module (pglite 0.3.16), and it does not
 * read postgresql.conf. Some of them are rewritten in the module's memory before initdb and the backend read them (the
 * new text is no longer than the old, NUL-terminated). WebAssembly memory never shrinks, so each is a floor of the
 * process's RSS for its whole life:
 * - shared_buffers 128MB: the buffer pool is allocated and touched at start. A feature-flag database is a few tens of
 *   MiB, its hot part (features, strategies, environments, indexes) a few MiB; pages not in the pool are one read away
 *   (the operating system's cache for a data folder, memory for an in-memory database).
 * - wal_buffers 4MB: one backend commits one transaction at a time; PostgreSQL's own default for a 16MB pool is 512kB.
 * - temp_buffers 8MB: no statement of the service uses temporary tables.
 * - min_wal_size 80MB: the WAL kept for reuse after a checkpoint (with PGlite's 1 MiB segments).
 */
export const SHARED_BUFFERS = '16MB';
const STARTUP_SETTINGS: ReadonlyArray<readonly [string, string]> = [
  ['shared_buffers=128MB', `shared_buffers=${SHARED_BUFFERS}`],
  ['wal_buffers=4MB', 'wal_buffers=1MB'],
  ['temp_buffers=8MB', 'temp_buffers=1MB'],
  ['min_wal_size=80MB', 'min_wal_size=8MB'],
];

/**
 * Session settings, applied once to PGlite's single backend (every client of the socket shares that session):
 * - enable_seqscan: PGlite starts its backend with `-f s`, which forbids sequential scans; the planner then reads
 *   whole tables through indexes and picks merge joins over them (the health report's queries took 2-4x longer).
 * - client_min_messages / log_min_messages: PGlite starts with debug levels; these are PostgreSQL's defaults.
 * - jit: the WASM build has no JIT provider; off spares the attempt to load one.
 */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = {
  enable_seqscan: 'on',
  client_min_messages: 'notice',
  log_min_messages: 'warning',
  jit: 'off',
};

/** Writes `replacement` over the NUL-terminated `original` in the module's memory; it must occur exactly once. */
function rewriteSetting(heap: Uint8Array, original: string, replacement: string): void {
  const memory = Buffer.from(heap.buffer, heap.byteOffset, heap.byteLength);
  const needle = Buffer.from(`${original}\0`, 'latin1');
  const at = memory.indexOf(needle);
  if (at < 0 || memory.indexOf(needle, at + 1) >= 0 || replacement.length > original.length) {
    throw new Error(`PGlite's start-up setting "${original}" was not found once in its module: was @electric-sql/pglite upgraded?`);
  }
  memory.fill(0, at, at + needle.length);
  memory.write(replacement, at, 'latin1');
}

export interface OpenedPglite { db: PGlite; callbacks: PgliteCallbacks }

/**
 * Creates a PGlite instance (in memory when `dir` is undefined) with the settings above, and records the read/write
 * callbacks PGlite installs (the wire bridge swaps its own in around each message and puts these back).
 */
async function createPglite(dir: string | undefined): Promise<OpenedPglite> {
  const callbacks: PgliteCallbacks = { read: -1, write: -1 };
  let mod: postgresMod.PostgresMod | undefined;
  const settings: Extension = {
    name: 'flagdeck-settings',
    setup: async (_pg, emscriptenOpts) => ({
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [...(emscriptenOpts.preRun ?? []), (m: postgresMod.PostgresMod) => { mod = m; }],
        onRuntimeInitialized() {
          emscriptenOpts.onRuntimeInitialized?.();
          const m = mod!;
          for (const [original, replacement] of STARTUP_SETTINGS) rewriteSetting(m.HEAPU8, original, replacement);
          const install = m._set_read_write_cbs;
          m._set_read_write_cbs = (read: number, write: number) => {
            if (callbacks.read < 0) Object.assign(callbacks, { read, write });
            install(read, write);
          };
        },
      },
    }),
  };
  const db = await PGlite.create({ dataDir: dir, extensions: { settings } });
  if (callbacks.read < 0) throw new Error('PGlite did not install its read/write callbacks');
  return { db, callbacks };
}

/** Copies the folder `from` to `to` (which must not exist), file by file (a copy-on-write clone where the file system can). */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { mode: 0o700 });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isFile()) copyFileSync(source, target, fsConstants.COPYFILE_FICLONE);
  }
}

/**
 * Defect 2 of issue 8: a kill during initdb left a half-made folder that failed on every later start. The first
 * start now makes `pglite.init-<pid>` beside the real folder, flushes it to disk and renames it into place: the real
 * folder either does not exist or is complete. Leftovers of dead processes are removed. The folder is a copy of
 * `template` (an initialised and migrated folder, src/db/embedded-template.ts) when there is one, else made by initdb.
 */
async function initialiseAtomically(dataDir: string, target: string, template?: string): Promise<void> {
  for (const name of readdirSync(dataDir)) {
    const match = /^pglite\.init-(\d+)$/.exec(name);
    if (match && (Number(match[1]) === process.pid || !pidAlive(Number(match[1])))) rmSync(path.join(dataDir, name), { recursive: true, force: true });
  }
  const temporary = path.join(dataDir, `pglite.init-${process.pid}`);
  if (template) {
    copyTree(template, temporary);
  } else {
    const { db } = await createPglite(temporary);
    await db.query('select 1');
    await db.close();
  }
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
export async function openExisting(dir: string): Promise<OpenedPglite> {
  let opened: OpenedPglite | undefined;
  try {
    opened = await createPglite(dir);
    await opened.db.query('select count(*) from information_schema.tables');
    return opened;
  } catch (err) {
    try { await opened?.db.close(); } catch { /* already broken */ }
    throw damaged(dir, err);
  }
}

/** Longest unix socket path (sun_path is 108 bytes on Linux, 104 on macOS), with room to spare. */
const MAX_SOCKET_PATH = 100;

/** How often the embedded database is looked after (see `maintain`), and the WAL written between checkpoints. */
export const MAINTENANCE_MS = 60_000;
export const CHECKPOINT_WAL_BYTES = 16 * 2 ** 20;

/** Tables (outside the system schemas) that need statistics: never analysed and not empty, or grown or shrunk by
 * more than a tenth (and 8 pages) since they were last vacuumed or analysed. */
const STALE_TABLES = `
  select format('%I.%I', n.nspname, c.relname), c.reltuples < 0
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
     and case when c.reltuples < 0 then pg_relation_size(c.oid) > 0
              else abs(pg_relation_size(c.oid) / 8192 - c.relpages) > 8 + c.relpages / 10 end`;

/** A pass blocks the event loop while it runs: after its first table it starts no other once it took this long. */
const MAINTENANCE_BUDGET_MS = 100;

/**
 * What PostgreSQL's background processes would do; PGlite's single backend has none of them.
 * - No checkpointer: a checkpoint happened only at shutdown, so the WAL grew without bound while the process lived
 *   (in memory, for an in-memory database) and a restart replayed all of it. A CHECKPOINT once CHECKPOINT_WAL_BYTES
 *   were written since the last one keeps it to about that (with min_wal_size, the WAL kept for reuse).
 * - No autovacuum: tables were never analysed after they grew (plans from statistics of another size) and dead rows
 *   were never reclaimed. A table whose size moved (see STALE_TABLES) is vacuumed and analysed; one never analysed is
 *   analysed. Tables left over by the time budget are taken at the next pass.
 * Returns the statements it ran.
 */
function maintain(backend: WireBackend): string[] {
  const ran: string[] = [];
  const run = (sql: string) => { backend.query(sql); ran.push(sql); };
  const started = Date.now();
  for (const [table, never] of backend.query(STALE_TABLES)) {
    if (ran.length > 0 && Date.now() - started > MAINTENANCE_BUDGET_MS) break;
    run(never === 't' ? `analyze ${table}` : `vacuum (analyze) ${table}`);
  }
  // Last, so the WAL a vacuum writes (whole pages, after a checkpoint) is taken by this pass's checkpoint.
  const [[wal]] = backend.query('select pg_current_wal_lsn() - redo_lsn from pg_control_checkpoint()');
  if (Number(wal) > CHECKPOINT_WAL_BYTES) run('checkpoint');
  return ran;
}

export interface EmbeddedOptions {
  /**
   * For a new data folder: the folder to copy instead of running initdb (src/db/embedded-template.ts), or undefined
   * when there is none. Not called for an existing folder; a failure counts as none.
   */
  template?: () => Promise<string | undefined>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) in `dataDir/pglite`, served over the PostgreSQL wire protocol on a unix
 * socket inside the data folder (issue 8, defect 1): no TCP port, the folder 0700 and the socket 0600, so only the
 * owner of the process can connect, and the socket takes one connection at a time, which the service's pool holds for
 * its whole life. `dataDir` undefined keeps the database in memory (tests), with the socket in a private temporary
 * folder; so does a data folder whose socket path would be too long for a unix socket.
 */
export async function startEmbeddedDatabase(dataDir?: string, { template }: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  let release = () => {};
  let opened: OpenedPglite;
  let socketDir: string;
  let ownSocketDir = false;
  let created: EmbeddedDatabase['created'];
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
    release = acquireLock(dataDir);
    try {
      const dir = path.join(dataDir, 'pglite');
      if (existsSync(dir)) {
        opened = await openExisting(dir);
      } else {
        const source = await template?.().catch(() => undefined);
        await initialiseAtomically(dataDir, dir, source);
        created = source ? 'template' : 'initdb';
        try {
          opened = await openExisting(dir);
        } catch (err) {
          // A template that does not open (damaged on disk since it was made) must not cost a new folder: initdb.
          if (!source) throw err;
          rmSync(dir, { recursive: true, force: true });
          await initialiseAtomically(dataDir, dir);
          created = 'initdb';
          opened = await openExisting(dir);
        }
      }
    } catch (err) {
      release();
      throw err;
    }
    socketDir = dataDir;
  } else {
    opened = await createPglite(undefined);
    socketDir = '';
  }
  const { db, callbacks } = opened;
  for (const [name, value] of Object.entries(SESSION_SETTINGS)) await db.exec(`set ${name} = '${value}'`);
  if (!socketDir || path.join(socketDir, '.s.PGSQL.5432').length > MAX_SOCKET_PATH) {
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-db-'));
    ownSocketDir = true;
  }
  const socketPath = path.join(socketDir, '.s.PGSQL.5432');
  // Ours to replace: the pid lock proves no live process serves this folder.
  rmSync(socketPath, { force: true });
  const umask = process.umask(0o077);
  let server: Awaited<ReturnType<typeof serveWire>>;
  try {
    server = await serveWire(db, callbacks, socketPath);
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  // Between the client's exchanges only; under load the next second is tried until one is free.
  let retry: NodeJS.Timeout | undefined;
  const looking = () => {
    let ok = false;
    try { ok = server.whenIdle((backend) => { maintain(backend); }); } catch { ok = true; /* tried again next time */ }
    retry = ok ? undefined : setTimeout(looking, 1000).unref();
  };
  // A checkpoint during a copy could recycle WAL the copy still needs.
  let copying = false;
  const timer = setInterval(() => { if (!retry && !copying) looking(); }, MAINTENANCE_MS).unref();
  return {
    url: `postgresql://postgres@${encodeURIComponent(socketDir)}:5432/postgres`,
    socketDir,
    created,
    wasmMemoryBytes: () => db.Module.HEAP8.buffer.byteLength,
    maintain() {
      let ran: string[] | undefined;
      server.whenIdle((backend) => { ran = maintain(backend); });
      return ran;
    },
    async copy(whileHeld) {
      if (copying) throw new Error('a copy of the embedded database is already being made');
      copying = true;
      try {
        return await copyDataFolder(db.Module.FS, (job) => whileHeld(() => {
          let out: ReturnType<typeof job> | undefined;
          if (!server.whenIdle((backend) => { out = job(backend); })) throw new Error('the embedded database was in the middle of an exchange while its only connection was held');
          return out!;
        }));
      } finally {
        copying = false;
      }
    },
    async stop() {
      clearInterval(timer);
      clearTimeout(retry);
      await server.stop();
      await db.close();
      rmSync(socketPath, { force: true });
      if (ownSocketDir) rmSync(socketDir, { recursive: true, force: true });
      release();
    },
  };
}
