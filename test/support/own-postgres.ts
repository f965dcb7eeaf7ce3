import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder of PostgreSQL's server programs (initdb, pg_ctl), or undefined when this machine has none. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin') : undefined;
}

/** The reason of tests that need them. */
export const NEEDS_POSTGRES_BINARIES = 'needs PostgreSQL\'s server programs (initdb, pg_ctl under /usr/lib/postgresql/<version>/bin: apt-get install postgresql)';

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = net.createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});

/** A PostgreSQL server of a test's own, in a temporary folder, to stop and start as an operator would. */
export interface OwnPostgres {
  url: string;
  /** `pg_ctl stop` (fast by default: sessions are ended, the server shuts down cleanly). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * initdb in a temporary folder (trust authentication, no fsync: a test's data), then a server on a free port of
 * 127.0.0.1. PostgreSQL refuses to run as root: as root, the programs run as the `postgres` user, who owns the folder.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(NEEDS_POSTGRES_BINARIES);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-own-pg-'));
  const asRoot = process.getuid?.() === 0;
  const exec = async (program: string, args: string[]) => {
    const full = path.join(bin, program);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', full, ...args]] : [full, args];
    return run(file, argv, { timeout: 60_000 });
  };
  if (asRoot) await run('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  let running = false;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    running = true;
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop(mode = 'fast') {
      await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    start,
    async destroy() {
      if (running) await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
