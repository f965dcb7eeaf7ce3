/**
 * `FLAGDECK_URL=<base> FLAGDECK_TOKEN=<admin token> npm run backup -- <file>`: saves a backup of a running service's
 * embedded database (GET /api/admin/backup) as <file>. It is written to <file>.partial, checked against its manifest
 * (every file's size and SHA-256), flushed, and only then renamed: a <file> that exists is whole. An existing <file>
 * is never overwritten. Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readArchive } from '../src/db/backup/archive';
import { BackupFileError, describeBackupProblem } from '../src/db/backup/manifest';
import { syncPath } from '../src/db/sync';

const NAME = 'flagdeck backup';

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${NAME}: ${message}\n`);
  return code;
};

/** The service's refusal in its own words: its status, error name and message. */
async function refusal(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { name?: string; message?: string };
    if (body.message) return `the service answered ${response.status} ${body.name ?? ''}: ${body.message}`;
  } catch {
    // not JSON: the status says enough
  }
  return `the service answered ${response.status} ${response.statusText}${response.status === 404 ? ' (is FLAGDECK_URL the address of a flagdeck?)' : ''}`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const usage = 'usage: FLAGDECK_URL=<base address> FLAGDECK_TOKEN=<admin API token> npm run backup -- <file>';
  if (args.length !== 1 || args[0]!.startsWith('-')) return fail(usage, 2);
  const file = args[0]!;
  const base = process.env.FLAGDECK_URL?.trim();
  const token = process.env.FLAGDECK_TOKEN?.trim();
  if (!base) return fail(`FLAGDECK_URL is not set: give the service's address, for example http://localhost:4242.\n${usage}`, 2);
  if (!token) return fail(`FLAGDECK_TOKEN is not set: give an admin API token (the one the first start printed, or one an Admin created).\n${usage}`, 2);
  let url: URL;
  try {
    url = new URL('api/admin/backup', base.endsWith('/') ? base : `${base}/`);
  } catch {
    return fail(`FLAGDECK_URL is not an address: ${base}`, 2);
  }
  if (existsSync(file)) return fail(`${file} already exists: choose another name (a backup never overwrites a file).`);
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: token } });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return fail(`cannot reach ${url.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}. Is the service running at FLAGDECK_URL?`);
  }
  if (response.status !== 200 || !response.body) return fail(await refusal(response));
  const partial = `${file}.partial`;
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    const manifest = await readArchive(createReadStream(partial));
    syncPath(partial);
    renameSync(partial, file);
    syncPath(path.dirname(path.resolve(file)));
    const size = statSync(file).size;
    process.stdout.write(`Saved ${file}: ${(size / 2 ** 20).toFixed(1)} MiB, the database of flagdeck ${manifest.flagdeckVersion} as it stood at ${manifest.createdAt} (${manifest.files.length} files, checked).\n`);
    return 0;
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof BackupFileError) return fail(`the backup the service sent ${describeBackupProblem('', err).trim()}. Nothing was saved.`);
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EEXIST') return fail(`${partial} already exists (another backup to the same file is running?). Nothing was saved.`);
    if (e.code) return fail(`cannot write ${file}: ${e.message}. Nothing was saved.`);
    return fail(`the download was cut short (${e.message}). Nothing was saved.`);
  }
}

main().then((code) => { process.exitCode = code; }, (err: Error) => {
  process.stderr.write(`${NAME}: ${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
