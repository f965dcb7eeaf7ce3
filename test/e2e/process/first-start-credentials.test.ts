import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { probe, serviceFleet, type ServiceProcess } from '../../support/service-process';

/**
 * Defect 8 of the security review: the admin token and password a first start generates are shown once, so they must
 * never be created by a start that cannot show them. The real service (and the recovery command) in child processes
 * on the embedded database, each case in one data folder; every start costs seconds, so each test runs a whole story.
 */
const ROOT = path.resolve(__dirname, '../../..');
// INIT_* unset: these are the cases where the service generates the credentials itself.
const { newFolder, start, stop, cleanup } = serviceFleet('flagdeck-first-start-', { INIT_ADMIN_PASSWORD: undefined });
afterAll(cleanup);

/** Waits until `done()` holds; fails with `shown()` (what the process printed) after `ms`. */
async function until(done: () => boolean, shown: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms; the process printed:\n${shown()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `npm run admin:reset-password` (what the package script runs) on `dataDir`: its exit code and output. */
function resetPassword(dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const key of ['DATABASE_URL', 'INIT_ADMIN_PASSWORD', 'INIT_ADMIN_API_TOKENS', 'NODE_OPTIONS']) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin-reset-password.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** POST /auth/simple/login as `admin`: the status and the session cookie. */
async function login(s: ServiceProcess, password: string): Promise<{ status: number; cookie: string }> {
  const res = await fetch(`http://127.0.0.1:${s.port}/auth/simple/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }),
  });
  await res.text();
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
}

const PASSWORD_SHOWN = /Its password is shown only this once:\n\n {4}(\S+)\n/;

describe('credentials generated on a first start', () => {
  it('a start on a busy port creates none: the next start on a free port prints the token and the password, and both work', async () => {
    const dataDir = newFolder();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const busyPort = (blocker.address() as AddressInfo).port;
    try {
      const taken = await start(dataDir, { PORT: String(busyPort) }, false);
      expect(await taken.exited).toBe(1);
      expect(taken.stderr()).toContain(`flagdeck cannot start: port ${busyPort} is already in use by another program`);
      expect(taken.stdout()).not.toContain('shown only this once');
    } finally {
      await new Promise((r) => blocker.close(r));
    }

    const s = await start(dataDir);
    await until(() => PASSWORD_SHOWN.test(s.stdout()), s.stdout);
    const token = /\*:\*\.[0-9a-f]{64}/.exec(s.stdout())?.[0];
    expect(token).toBeDefined();
    expect(await probe(s, '/api/admin/projects', { authorization: token! })).toBe(200);
    expect((await login(s, PASSWORD_SHOWN.exec(s.stdout())![1])).status).toBe(200);
    expect(s.stdout()).not.toContain('admin:reset-password');
    expect(await stop(s)).toBe(0);
  }, 120_000);

  it('credentials never shown are announced at the next start; the recovery command refuses a folder in use and otherwise sets a password that logs in', async () => {
    const dataDir = newFolder();
    // Its stdout is closed at once: the credentials are created, and writing them fails.
    const blind = await start(dataDir, { LOG_LEVEL: 'silent' }, false);
    blind.child.stdout!.destroy();
    await until(() => blind.stderr().includes('could not be written'), blind.stderr);
    expect(blind.stderr()).toContain('npm run admin:reset-password');
    expect(await stop(blind)).toBe(0);

    const s = await start(dataDir);
    await until(() => s.stdout().includes('npm run admin:reset-password') && s.stdout().includes('INIT_ADMIN_API_TOKENS'), s.stdout);
    expect(s.stdout()).toContain('password of user "admin" generated on');
    expect(s.stdout()).not.toContain('shown only this once');

    const refused = await resetPassword(dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`in use by process ${s.pid}`);
    expect(refused.stderr).toContain('Stop it, then run this command again');
    expect(refused.stdout).not.toMatch(/password/i);
    expect(await stop(s)).toBe(0);

    const reset = await resetPassword(dataDir);
    expect(reset).toMatchObject({ code: 0, stderr: '' });
    const password = /New password of user "admin", shown only this once:\n\n {4}(\S+)\n/.exec(reset.stdout)?.[1];
    expect(password).toBeDefined();

    const again = await start(dataDir);
    const session = await login(again, password!);
    expect(session.status).toBe(200);
    // The password notice is gone (the token's remains: that token is still unknown and unused).
    expect(again.stdout()).not.toContain('npm run admin:reset-password');
    expect(again.stdout()).toContain('INIT_ADMIN_API_TOKENS');
    const events = await fetch(`http://127.0.0.1:${again.port}/api/admin/events?type=user-updated`, { headers: { cookie: session.cookie } });
    expect(events.status).toBe(200);
    const { events: list } = await events.json() as { events: Array<{ type: string; createdBy: string; data: { username: string; passwordChanged?: boolean } }> };
    expect(list).toEqual([expect.objectContaining({ type: 'user-updated', createdBy: 'admin:reset-password', data: expect.objectContaining({ username: 'admin', passwordChanged: true }) })]);
    expect(await stop(again)).toBe(0);
  }, 180_000);
});
