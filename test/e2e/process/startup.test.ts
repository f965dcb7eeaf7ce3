import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from '@jest/globals';

/**
 * The README's promise, end to end: the real entry point (src/main.ts) on the embedded database in a data
 * folder, restarted on the same folder. These start real processes, so they take a few seconds each.
 */
const ROOT = path.resolve(__dirname, '../../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

function run(env: Record<string, string | undefined>): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL; // the embedded default unless a test names a server
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  // What `npm start` runs (test/unit/start-script.test.ts): the build when it is current, else the sources through tsx.
  const child = spawn(process.execPath, ['scripts/start.js'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

function start(env: Record<string, string | undefined>): Promise<Started> {
  const child = run(env);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"port":(\d+)/.exec(out);
      // Wait for the token banner too: it is printed right after the listening line.
      if (m && (out.includes('Try: curl') || !out.includes('No admin API token existed') && /listening/.test(out))) {
        clearTimeout(timer);
        setTimeout(() => resolve({ child, port: Number(m[1]), output: () => out }), 50);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}:\n${out}`)); });
  });
}

async function stop(s: Started): Promise<void> {
  s.child.removeAllListeners('exit');
  await new Promise<void>((resolve) => { s.child.once('exit', () => resolve()); s.child.kill('SIGTERM'); });
}

function exitOf(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const child = run(env);
  let output = '';
  child.stdout!.on('data', (c) => { output += c; });
  child.stderr!.on('data', (c) => { output += c; });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'flagdeck-start-'));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('npm start on the embedded database', () => {
  it('creates and prints an admin token on a fresh folder, keeps data and token across a restart', async () => {
    const dir = dataDir();
    const first = await start({ DATA_DIR: dir, INIT_ADMIN_API_TOKENS: undefined });
    const token = /\*:\*\.[0-9a-f]{64}/.exec(first.output())?.[0];
    expect(token).toBeDefined();
    const base = `http://127.0.0.1:${first.port}`;
    const anonymous = await fetch(`${base}/api/admin/tags`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/json');
    expect((await anonymous.json()).name).toBe('AuthenticationRequired');
    const created = await fetch(`${base}/api/admin/tags`, { method: 'POST', headers: { authorization: token!, 'content-type': 'application/json' }, body: JSON.stringify({ value: 'kept' }) });
    expect(created.status).toBe(201);
    await stop(first);

    const second = await start({ DATA_DIR: dir, INIT_ADMIN_API_TOKENS: undefined });
    expect(second.output()).not.toContain('No admin API token existed');
    const tags = await fetch(`http://127.0.0.1:${second.port}/api/admin/tags`, { headers: { authorization: token! } });
    expect(tags.status).toBe(200);
    expect(await tags.json()).toEqual({ version: 1, tags: [{ type: 'simple', value: 'kept' }] });
    await stop(second);
  }, 120_000);

  it('creates the configured INIT_ADMIN_API_TOKENS and prints none', async () => {
    const s = await start({ DATA_DIR: dataDir(), INIT_ADMIN_API_TOKENS: '*:*.first-secret-123, *:*.second-secret-456' });
    expect(s.output()).not.toContain('No admin API token existed');
    for (const token of ['*:*.first-secret-123', '*:*.second-secret-456']) {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/admin/tags`, { headers: { authorization: token } });
      expect(res.status).toBe(200);
    }
    const wrong = await fetch(`http://127.0.0.1:${s.port}/api/admin/tags`, { headers: { authorization: '*:*.first-secret-124' } });
    expect(wrong.status).toBe(401);
    // Each request is logged at info on stdout (LOG_LEVEL=info here) with its route pattern, and without its token.
    await new Promise((r) => setTimeout(r, 100));
    const requests = s.output().split('\n').filter((l) => l.includes('"msg":"request completed"')).map((l) => JSON.parse(l));
    expect(requests.filter((l) => l.route === '/api/admin/tags').map((l) => l.status)).toEqual([200, 200, 401]);
    expect(s.output()).not.toMatch(/first-secret-12|second-secret-456/);
    await stop(s);
  }, 120_000);

  it('refuses invalid configuration before starting, and a second process on the same data folder', async () => {
    const bad = await exitOf({ DATA_DIR: dataDir(), PORT: 'eighty' });
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('PORT must be a whole number');
    const badToken = await exitOf({ DATA_DIR: dataDir(), INIT_ADMIN_API_TOKENS: 'not-a-token' });
    expect(badToken.code).toBe(2);
    expect(badToken.output).toContain('INIT_ADMIN_API_TOKENS');
    const badFormat = await exitOf({ DATA_DIR: dataDir(), LOG_FORMAT: 'xml' });
    expect(badFormat.code).toBe(2);
    expect(badFormat.output).toContain('LOG_FORMAT must be json or pretty');

    const dir = dataDir();
    const s = await start({ DATA_DIR: dir, INIT_ADMIN_API_TOKENS: '*:*.lock-test-secret' });
    const twin = await exitOf({ DATA_DIR: dir, INIT_ADMIN_API_TOKENS: '*:*.lock-test-secret' });
    expect(twin.code).toBe(1);
    expect(twin.output).toContain('is in use by process');
    await stop(s);
  }, 120_000);

  it('a PostgreSQL server that cannot be reached is a clear message naming it (never its password) and exit code 1', async () => {
    const down = await exitOf({ DATA_DIR: dataDir(), DATABASE_URL: 'postgresql://someone:s3cret-pw@127.0.0.1:1/nowhere' });
    expect(down.code).toBe(1);
    expect(down.output).toContain('flagdeck cannot start: cannot use PostgreSQL at 127.0.0.1:1/nowhere as user someone: the connection was refused');
    expect(down.output).not.toMatch(/s3cret|TypeError|    at /);
  }, 120_000);

  it('a port in use is a clear message and exit code 1, not a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const taken = await exitOf({ DATA_DIR: dataDir(), PORT: String(port) });
      expect(taken.code).toBe(1);
      expect(taken.output).toContain(`flagdeck cannot start: port ${port} is already in use by another program`);
      expect(taken.output).not.toMatch(/TypeError|    at /);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  }, 120_000);
});
