import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { acquireLock, DataFolderInUseError, openExisting } from '../embedded';
import { syncPath, syncTree } from '../sync';
import { migrationsList } from '../migrations';
import { readArchive, type ArchiveSink } from './archive';
import { BackupFileError, type BackupManifest } from './manifest';

/** A restore that was refused before anything was written (the folder, or the file); the message says why. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/** Writes what the archive holds under `root` (its `pglite/` prefix dropped); the whole tree is flushed once at the end. */
function folderSink(root: string): ArchiveSink {
  const local = (archivePath: string) => path.join(root, ...archivePath.split('/').slice(1));
  return {
    directory(dir) {
      mkdirSync(local(dir), { recursive: true, mode: 0o700 });
    },
    file(file) {
      const fd = openSync(local(file), 'wx', 0o600);
      return {
        write(chunk) {
          for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
        },
        end() {
          closeSync(fd);
        },
      };
    },
  };
}

/** Refuses a backup that holds migrations this version does not have: its schema is newer than this code knows. */
export function checkMigrations(manifest: BackupManifest, known: readonly string[] = migrationsList.map((m) => m.name)): void {
  const have = new Set(known);
  const unknown = manifest.migrations.filter((name) => !have.has(name));
  if (unknown.length > 0) {
    throw new BackupFileError('too-new', `it was taken from flagdeck ${manifest.flagdeckVersion}, whose database has migrations this version does not know (${unknown.join(', ')}): restore it with that version or a later one`);
  }
}

/**
 * Restores the backup `file` into the embedded data folder `dataDir` (new or empty): the files are checked against the
 * manifest as they are written into `pglite.init-<pid>`, the copy is opened once (PostgreSQL replays the little WAL
 * taken with it and shuts down cleanly) and its migrations compared with the manifest's, then it is flushed and renamed
 * to `pglite`, as a first start makes a folder: the folder holds either nothing or the whole database. The folder is
 * locked meanwhile, so that a service started on it waits for nothing half-made.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupManifest> {
  if (!existsSync(file)) throw new RestoreRefused(`there is no file ${file}`);
  const made = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let release: () => void;
  try {
    release = acquireLock(dataDir);
  } catch (err) {
    if (err instanceof DataFolderInUseError) throw new RestoreRefused(`the data folder ${dataDir} is in use by process ${err.pid} (a running flagdeck, or another restore). Stop it, or restore into another folder.`);
    throw err;
  }
  const work = path.join(dataDir, `pglite.init-${process.pid}`);
  try {
    const entries = readdirSync(dataDir).filter((name) => name !== 'flagdeck.lock');
    if (entries.length > 0) {
      throw new RestoreRefused(`the data folder ${dataDir} is not empty (it holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}). Restore into a new or empty folder; to replace a service's data, stop it, move its folder aside and restore into that path.`);
    }
    mkdirSync(work, { mode: 0o700 });
    const manifest = await readArchive(createReadStream(file), folderSink(work), (m) => checkMigrations(m));
    let opened;
    try {
      opened = await openExisting(work);
    } catch (err) {
      throw new BackupFileError('damaged', `its database does not open with this flagdeck's PostgreSQL (the backup's is PostgreSQL ${manifest.postgresMajor}): ${(err as Error).message.split('\n')[0]}`);
    }
    try {
      const { rows } = await opened.db.query<{ name: string }>('select name from mikro_orm_migrations order by id');
      const applied = rows.map((row) => row.name).join(',');
      if (applied !== manifest.migrations.join(',')) throw new BackupFileError('damaged', 'its database does not hold the migrations its manifest lists');
    } finally {
      await opened.db.close();
    }
    syncTree(work);
    renameSync(work, path.join(dataDir, 'pglite'));
    syncPath(dataDir);
    return manifest;
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    release();
    // Refused: the folder is as it was (one this restore made goes again).
    if (made) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    release();
  }
}
