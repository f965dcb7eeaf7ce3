/**
 * Backups of the embedded database: a data folder seeded with the 1000-feature set of bench/feature-model-data.ts (and
 * --events audit events), served as `npm start` serves it. One client reads the project's feature list without a
 * pause, first alone, then while backups are taken one after the other (GET /api/admin/backup, read to the end as
 * `npm run backup` reads it); then the last backup is restored into a new folder. Prints the folder's size, the
 * backup's size and time, how long each held the database (its Server-Timing), the reader's latencies (p50, p99, max)
 * with and without backups, and the restore's time.
 *
 *   npm run bench:backup [-- --backups 10] [-- --seconds 10] [-- --events 20000] [-- --sources]
 */
import { createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fillEvents, percentile, seedEmbeddedFolder, timedRequest } from './bench-app';
import { PROJECT } from './feature-model-data';
import { forkAsNpmStart, stopService, untilServing } from './start-command';
import { restoreBackup } from '../src/db/backup/restore';

const TOKEN = '*:*.bench-backup-token';
const arg = (name: string, fallback: number) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : fallback; };
const BACKUPS = arg('--backups', 10);
const SECONDS = arg('--seconds', 10);
const EVENTS = arg('--events', 20_000);
const SOURCES = process.argv.includes('--sources');

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : entry.isFile() ? statSync(full).size : 0;
  }
  return total;
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${String(sorted.length).padStart(6)} reads  p50 ${percentile(sorted, 50).toFixed(2).padStart(6)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms  max ${sorted[sorted.length - 1]!.toFixed(2).padStart(7)} ms`;
}

/** Reads the project's feature list, one request after the other, until `until()` says stop; each latency in ms. */
async function reader(base: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) latencies.push((await timedRequest(base, 'feature list', { path: `/api/admin/projects/${PROJECT}/features` }, TOKEN)).ms);
  return latencies;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'flagdeck-bench-backup-'));
  const dataDir = path.join(work, 'data');
  try {
    const seeding = Date.now();
    await seedEmbeddedFolder(dataDir, (seed) => fillEvents(seed, EVENTS));
    console.log(`node ${process.version}; 1000 features and ${EVENTS} events seeded in ${Date.now() - seeding} ms; data folder ${(folderBytes(dataDir) / 2 ** 20).toFixed(1)} MiB; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

    const port = 20000 + Math.floor(Math.random() * 20000);
    const base = `http://127.0.0.1:${port}`;
    const child = forkAsNpmStart({ ...(SOURCES ? { FLAGDECK_RUN_SOURCES: '1' } : {}), DATA_DIR: dataDir, PORT: String(port), INIT_ADMIN_API_TOKENS: TOKEN });
    try {
      await untilServing(base, TOKEN, child);
      // Warm: the first requests compile the paths and fill the caches.
      const warm = Date.now() + 2000;
      await reader(base, () => Date.now() > warm);

      const quietUntil = Date.now() + SECONDS * 1000;
      console.log(`reader alone (${SECONDS} s)        ${summary(await reader(base, () => Date.now() > quietUntil))}`);

      let backingUp = true;
      const reading = reader(base, () => !backingUp);
      const times: number[] = [];
      const firstBytes: number[] = [];
      const held: number[] = [];
      let size = 0;
      const file = path.join(work, 'bench.backup');
      for (let i = 0; i < BACKUPS; i++) {
        rmSync(file, { force: true });
        const t = performance.now();
        const res = await fetch(`${base}/api/admin/backup`, { headers: { authorization: TOKEN } });
        if (res.status !== 200 || !res.body) throw new Error(`backup: ${res.status} ${await res.text()}`);
        firstBytes.push(performance.now() - t);
        held.push(Number(/snapshot;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]));
        await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
        times.push(performance.now() - t);
        size = statSync(file).size;
      }
      backingUp = false;
      const during = await reading;
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`reader during ${BACKUPS} backups      ${summary(during)}`);
      console.log(`backup: ${(size / 2 ** 20).toFixed(2)} MiB; time to the first byte p50 ${percentile([...firstBytes].sort((a, b) => a - b), 50).toFixed(0)} ms; whole backup p50 ${percentile(sorted, 50).toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms`);
      console.log(`requests waited behind each backup's exclusive steps (Server-Timing): ${held.map((ms) => ms.toFixed(0)).join(', ')} ms`);

      const t = performance.now();
      await restoreBackup(file, path.join(work, 'restored'));
      console.log(`restore into a new folder (checked, opened once): ${(performance.now() - t).toFixed(0)} ms; restored folder ${(folderBytes(path.join(work, 'restored')) / 2 ** 20).toFixed(1)} MiB`);
    } finally {
      await stopService(child);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
