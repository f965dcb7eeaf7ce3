import type { ArchiveFile } from './backup/archive';
import type { WireBackend } from './embedded-wire';

/** Where PGlite keeps its data folder in its module's file system (the data folder on disk is mounted there). */
const PGDATA = '/tmp/pglite/base';

/** The data folder's content at one moment, as paths under `pglite/`. */
export interface DataSnapshot {
  postgresMajor: string;
  directories: string[];
  files: ArchiveFile[];
}

/**
 * What a copy leaves out, as pg_basebackup does: the running server's pid file, caches and temporary state that a
 * starting server makes anew, and WAL before the checkpoint the copy starts from (folders are kept, empty).
 */
const EMPTIED = new Set(['pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans']);
const LEFT_OUT = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init']);

interface EmscriptenFs {
  readdir(path: string): string[];
  stat(path: string): { mode: number };
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  readFile(path: string): Uint8Array;
}

/**
 * Copies the data folder while no transaction is open (`backend` idle): a CHECKPOINT first writes every committed
 * change into the data files, and the WAL from that checkpoint on is taken with them, so the copy opens (with a short
 * recovery) as the database stood at this moment. Synchronous: nothing else runs on the database meanwhile.
 */
export function snapshotDataFolder(fs: EmscriptenFs, backend: WireBackend): DataSnapshot {
  backend.query('checkpoint');
  const [[redo, last]] = backend.query('select redo_wal_file, pg_walfile_name(pg_current_wal_insert_lsn()) from pg_control_checkpoint()');
  const directories: string[] = [];
  const files: ArchiveFile[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    for (const name of fs.readdir(`${PGDATA}${relative}`).sort()) {
      if (name === '.' || name === '..' || LEFT_OUT.has(name) || name.startsWith('pgsql_tmp')) continue;
      const child = `${relative}/${name}`;
      const mode = fs.stat(`${PGDATA}${child}`).mode;
      if (fs.isDir(mode)) {
        directories.push(`pglite${child}`);
        if (!(relative === '' && EMPTIED.has(name))) pending.push(child);
      } else if (fs.isFile(mode)) {
        // WAL segment names sort in WAL order within a timeline: keep those from the checkpoint's to the last written.
        if (relative === '/pg_wal' && /^[0-9A-F]{24}$/.test(name) && (name < redo! || name > last!)) continue;
        files.push({ path: `pglite${child}`, bytes: fs.readFile(`${PGDATA}${child}`) });
      }
    }
  }
  directories.sort();
  const version = files.find((f) => f.path === 'pglite/PG_VERSION');
  return { postgresMajor: Buffer.from(version?.bytes ?? []).toString('latin1').trim(), directories, files };
}
