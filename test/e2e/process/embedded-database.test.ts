import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Client } from 'pg';
import { ormConfig } from '../../../src/db/orm';
import { probe, serviceFleet } from '../../support/service-process';

/**
 * Issue 8, defects 1 and 2: the real service in a child process on the embedded database.
 * 1. PGlite is reachable only through a unix socket in the data folder (no TCP port), folder 0700 and socket 0600,
 *    and the service holds the socket's one connection, so no other client is served.
 * 2. A kill -9 at any moment of the very first start leaves a folder the next start opens; a folder that is damaged
 *    anyway gets a message that says what to do, never a WASM abort.
 */
const TOKEN = '*:*.embedded-test-token-1';
const { newFolder, start, stop, cleanup } = serviceFleet('flagdeck-embedded-', { INIT_ADMIN_API_TOKENS: TOKEN });
afterAll(cleanup);

/** Inodes of the TCP sockets in LISTEN state (IPv4 and IPv6) with their ports. */
function listeningTcp(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A') out.set(cols[9], parseInt(cols[1].split(':').pop()!, 16));
    }
  }
  return out;
}

/** Ports the process listens on over TCP, from its open file descriptors. */
function tcpPortsOf(pid: number): number[] {
  const listening = listeningTcp();
  const ports: number[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try { target = readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { continue; }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && listening.has(inode)) ports.push(listening.get(inode)!);
  }
  return ports.sort();
}

describe('the embedded database is closed to other processes', () => {
  it('serves PGlite on an owner-only unix socket in the data folder, no TCP port but HTTP, and no second client gets in', async () => {
    const dataDir = newFolder();
    const s = await start(dataDir);
    expect(await probe(s, '/api/admin/projects', { authorization: TOKEN })).toBe(200);

    expect(tcpPortsOf(s.pid)).toEqual([s.port]);
    // The production server answers what the HTTP parser refuses with the JSON body (defect 11).
    const big = await fetch(`http://127.0.0.1:${s.port}/health`, { headers: { 'x-big': 'b'.repeat(17_000) } });
    expect({ status: big.status, name: ((await big.json()) as { name: string }).name }).toEqual({ status: 431, name: 'ContentTooLarge' });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const socket = path.join(dataDir, '.s.PGSQL.5432');
    const st = statSync(socket);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);

    // The service holds the only connection: another client is turned away, now and after an idle pause.
    for (const pause of [0, 1500]) {
      await new Promise((r) => setTimeout(r, pause));
      const intruder = new Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 3000 });
      const outcome = await intruder.connect().then(() => intruder.query('select 1').then(() => 'served', () => 'refused'), () => 'refused');
      await intruder.end().catch(() => {});
      expect(outcome).toBe('refused');
      expect(await probe(s, '/api/admin/projects', { authorization: TOKEN })).toBe(200);
    }
    expect(await stop(s)).toBe(0);
  }, 60_000);

  it('the pool keeps its one connection for the life of the process (never reaped when idle)', () => {
    const pool = ormConfig({ url: 'postgresql://x@%2Ftmp:5432/db', poolMax: 1, holdConnection: true }).pool!;
    expect(pool).toMatchObject({ min: 1, max: 1 });
    expect(pool.idleTimeoutMillis).toBeGreaterThanOrEqual(2 ** 31 - 1);
  });
});

describe('the first start is atomic', () => {
  it('a kill -9 at any moment of the first start leaves a folder the next start opens', async () => {
    for (const after of [300, 900, 1600, 2400]) {
      const dataDir = newFolder();
      const s = await start(dataDir, {}, false);
      await new Promise((r) => setTimeout(r, after));
      s.kill('SIGKILL');
      await s.exited;
      const again = await start(dataDir);
      expect({ after, status: await probe(again, '/api/admin/projects', { authorization: TOKEN }) }).toEqual({ after, status: 200 });
      expect(readdirSync(dataDir).filter((n) => n.startsWith('pglite.init-'))).toEqual([]);
      expect(await stop(again)).toBe(0);
    }
  }, 120_000);

  it('a first start copies the template made for these migrations (src/db/embedded-template.ts) and leaves it as it was', async () => {
    // What `npm run build` does (PGlite does not load inside jest's VM); a template already there is kept.
    const root = path.resolve(__dirname, '../../..');
    const template = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '-e', "require('./src/db/embedded-template').buildTemplate().then((d) => console.log(d))"],
        { cwd: root, env: { ...process.env, DATABASE_URL: undefined, NODE_OPTIONS: undefined } },
        (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out.trim())));
    });
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      .map((e) => { const f = path.join(e.parentPath, e.name); return `${path.relative(dir, f)} ${statSync(f).size} ${statSync(f).mtimeMs}`; }).sort();
    const before = files(template);
    const dataDir = newFolder();
    const s = await start(dataDir);
    expect(s.stdout()).toContain('"created":"template"');
    expect(await probe(s, '/api/admin/projects', { authorization: TOKEN })).toBe(200);
    expect(await stop(s)).toBe(0);
    expect(files(template)).toEqual(before);
  }, 60_000);

  it('a damaged folder is reported with what to do, and exit code 1, never a WASM abort', async () => {
    const dataDir = newFolder();
    const first = await start(dataDir);
    expect(await stop(first)).toBe(0);
    // Damage the catalog the way a crash of the machine might: the control file is gone.
    writeFileSync(path.join(dataDir, 'pglite', 'global', 'pg_control'), Buffer.alloc(0));
    const broken = await start(dataDir, { INIT_ADMIN_API_TOKENS: undefined }, false);
    expect(await broken.exited).toBe(1);
    expect(broken.stderr()).toContain('cannot be opened');
    expect(broken.stderr()).toContain(`mv "${path.join(dataDir, 'pglite')}"`);
    expect(broken.stderr()).not.toMatch(/RuntimeError|at .*\.js:\d+/);
  }, 60_000);
});
