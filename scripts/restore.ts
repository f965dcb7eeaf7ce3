/**
 * `DATA_DIR=<new or empty folder> npm run restore -- <file>`: restores a backup of the embedded database (taken with
 * `npm run backup`, or downloaded from GET /api/admin/backup) into the data folder, checked file by file; then
 * `DATA_DIR=<folder> npm start` serves it. Refuses a folder in use or not empty, and a file that is not a flagdeck
 * backup, is damaged or incomplete, or comes from a newer flagdeck. Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
import { ConfigError, loadConfig } from '../src/config';
import { restoreBackup, RestoreRefused } from '../src/db/backup/restore';
import { BackupFileError, describeBackupProblem } from '../src/db/backup/manifest';

const NAME = 'flagdeck restore';

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${NAME}: ${message}\n`);
  return code;
};

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-')) return fail('usage: DATA_DIR=<new or empty folder> npm run restore -- <backup file>', 2);
  const file = args[0]!;
  let dataDir: string;
  try {
    const config = loadConfig();
    if (config.databaseUrl) return fail('DATABASE_URL is set: this restores the embedded database into DATA_DIR. Restore a PostgreSQL dump with pg_restore (see "Backups and restores" in the README).', 2);
    dataDir = config.dataDir;
  } catch (err) {
    if (err instanceof ConfigError) return fail(`invalid configuration: ${err.message}`, 2);
    throw err;
  }
  try {
    const manifest = await restoreBackup(file, dataDir);
    process.stdout.write(
      `Restored ${file} into ${dataDir}: the database of flagdeck ${manifest.flagdeckVersion} as it stood at ${manifest.createdAt} ` +
      `(${manifest.files.length} files checked, ${manifest.migrations.length} migrations).\n` +
      `Start it with:\n\n    DATA_DIR=${JSON.stringify(dataDir)} npm start\n\n`);
    return 0;
  } catch (err) {
    if (err instanceof BackupFileError) return fail(`${describeBackupProblem(file, err)}. Nothing was restored.`);
    if (err instanceof RestoreRefused) return fail(`${err.message} Nothing was restored.`);
    throw err;
  }
}

main().then((code) => { process.exitCode = code; }, (err: Error) => {
  process.stderr.write(`${NAME}: ${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
