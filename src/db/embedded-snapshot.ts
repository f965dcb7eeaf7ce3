import type { ArchiveFile } from './backup/archive';
import type { WireBackend } from './embedded-wire';

/** Where PGlite keeps its data folder in its module's file system (the data folder on disk is mounted there). */
const PGDATA = '/tmp/pglite/base';

/** The data folder as a backup holds it, as paths under `pglite/`. */
export interface DataSnapshot {
  postgresMajor: string;
  directories: string[];
  files: ArchiveFile[];
}

/** Runs `job` with the backend while no client exchange or transaction is open (the caller holds the only connection). */
export type Exclusive = <T>(job: (backend: WireBackend) => T) => Promise<T>;

/**
 * What a copy leaves out, as pg_basebackup does: the running server's pid file, caches and temporary state that a
 * starting server makes anew (folders are kept, empty); WAL is taken apart from the data files.
 */
const EMPTIED = new Set(['pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans', 'pg_wal']);
const LEFT_OUT = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init', 'backup_label', 'backup_label.old', 'tablespace_map']);

interface EmscriptenFs {
  readdir(path: string): string[];
  stat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  readFile(path: string): Uint8Array;
  analyzePath(path: string): { exists: boolean };
}

/** Stat calls between two turns of the event loop while the folder is listed (each costs a system call on disk). */
const LISTED_PER_TURN = 100;

/**
 * The data folder's folders and files (paths relative to it, `/`-prefixed), WAL and transient state aside. Listed
 * after pg_backup_start, not under it: a file made later is made again by the replay, one removed is skipped.
 */
async function listTree(fs: EmscriptenFs): Promise<{ directories: string[]; files: string[] }> {
  const directories: string[] = [];
  const files: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let names: string[];
    try {
      names = fs.readdir(`${PGDATA}${relative}`).sort();
    } catch {
      continue; // removed since it was listed
    }
    for (const name of names) {
      if (name === '.' || name === '..' || LEFT_OUT.has(name) || name.startsWith('pgsql_tmp')) continue;
      const child = `${relative}/${name}`;
      if ((directories.length + files.length) % LISTED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      let mode: number;
      try {
        mode = fs.stat(`${PGDATA}${child}`).mode;
      } catch {
        continue; // removed since its folder was read
      }
      if (fs.isDir(mode)) {
        directories.push(child);
        if (!(relative === '' && EMPTIED.has(name))) pending.push(child);
      } else if (fs.isFile(mode)) {
        files.push(child);
      }
    }
  }
  // The one folder inside pg_wal (PostgreSQL would make it again, but a copy is as the server left it).
  if (fs.analyzePath(`${PGDATA}/pg_wal/archive_status`).exists) directories.push('/pg_wal/archive_status');
  return { directories: directories.sort(), files };
}

/** A WAL segment's number (its name is the timeline, then the number split in two, in hexadecimal). */
function segmentNumber(name: string, segmentsPerId: number): number {
  return parseInt(name.slice(8, 16), 16) * segmentsPerId + parseInt(name.slice(16, 24), 16);
}

/** Every WAL segment from `first` to `last`, read now; an error when one of them is gone. */
function readWal(fs: EmscriptenFs, first: string, last: string, segmentBytes: number): ArchiveFile[] {
  const names = fs.readdir(`${PGDATA}/pg_wal`).filter((name) => /^[0-9A-F]{24}$/.test(name) && name >= first && name <= last).sort();
  const perId = 2 ** 32 / segmentBytes;
  if (names.length !== segmentNumber(last, perId) - segmentNumber(first, perId) + 1) {
    throw new Error(`WAL written during the backup was recycled before it was copied (${first} to ${last}, ${names.length} found)`);
  }
  return names.map((name) => ({ path: `pglite/pg_wal/${name}`, bytes: fs.readFile(`${PGDATA}/pg_wal/${name}`) }));
}

/**
 * An online backup, as pg_basebackup takes one, while the service goes on serving:
 * 1. Exclusively (a few milliseconds): pg_backup_start, with an immediate checkpoint.
 * 2. The list of files and then the files, a few at a time with the event loop turning in between, so that requests
 *    are served meanwhile.
 *    A file written while others are read is made whole again from the WAL when the copy is opened: PostgreSQL logs
 *    whole pages after a checkpoint (full_page_writes) and replays from the backup's checkpoint.
 * 3. Exclusively: pg_backup_stop, and the WAL from the backup's start to now, with the backup_label that tells the
 *    restored server where replay starts. It opens as the database stood at the end of the copy.
 * A backup that fails half-way is stopped, so that the next can start.
 */
export async function copyDataFolder(fs: EmscriptenFs, exclusive: Exclusive): Promise<DataSnapshot> {
  const start = await exclusive((backend) => {
    const [[lsn]] = backend.query(`select pg_backup_start('flagdeck backup', true)`);
    const [[firstWal, segmentBytes]] = backend.query(`select pg_walfile_name('${lsn}'), setting::bigint from pg_settings where name = 'wal_segment_size'`);
    return { firstWal: firstWal!, segmentBytes: Number(segmentBytes) };
  });
  let stopped = false;
  try {
    const tree = await listTree(fs);
    const files: ArchiveFile[] = [];
    for (const file of tree.files) {
      await new Promise((resolve) => setImmediate(resolve));
      try {
        files.push({ path: `pglite${file}`, bytes: fs.readFile(`${PGDATA}${file}`) });
      } catch (err) {
        // Dropped or truncated away since the list was made: the WAL replay removes it as the server did.
        if (fs.analyzePath(`${PGDATA}${file}`).exists) throw err;
      }
    }
    const end = await exclusive((backend) => {
      const [[label]] = backend.query('select labelfile from pg_backup_stop(false)');
      stopped = true;
      const [[lastWal]] = backend.query('select pg_walfile_name(pg_current_wal_insert_lsn())');
      return { label: label!, wal: readWal(fs, start.firstWal, lastWal!, start.segmentBytes) };
    });
    files.push(...end.wal, { path: 'pglite/backup_label', bytes: Buffer.from(end.label, 'utf8') });
    const version = files.find((f) => f.path === 'pglite/PG_VERSION');
    return { postgresMajor: Buffer.from(version?.bytes ?? []).toString('latin1').trim(), directories: tree.directories.map((d) => `pglite${d}`), files };
  } finally {
    if (!stopped) await exclusive((backend) => backend.query('select pg_backup_stop(false)')).catch(() => {});
  }
}
