import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { probe, spawnService, type ServiceProcess } from '../../support/service-process';

/**
 * Defect 8 of the security review: the admin token and password a first start generates are shown once, so they must
 * never be created by a start that cannot show them. The real service in child processes on the embedded database,
 * each case in one data folder; every start costs seconds, so each test runs a whole story.
 */
const folders: string[] = [];
const running: ServiceProcess[] = [];
const newFolder = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flagdeck-first-start-'));
  folders.push(dir);
  return path.join(dir, 'data');
};
// INIT_* unset: these are the cases where the service generates the credentials itself.
const start = async (dataDir: string, env: Record<string, string | undefined> = {}, wait = true) => {
  const s = await spawnService({ DATA_DIR: dataDir, INIT_ADMIN_PASSWORD: undefined, ...env }, { waitForListening: wait });
  running.push(s);
  return s;
};
const stop = async (s: ServiceProcess) => {
  s.kill('SIGTERM');
  return s.exited;
};
afterAll(async () => {
  for (const s of running) s.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** Waits until `done()` holds; fails with `shown()` (what the process printed) after `ms`. */
async function until(done: () => boolean, shown: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms; the process printed:\n${shown()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** POST /auth/simple/login as `admin`: the status. */
async function login(s: ServiceProcess, password: string): Promise<{ status: number }> {
  const res = await fetch(`http://127.0.0.1:${s.port}/auth/simple/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }),
  });
  await res.text();
  return { status: res.status };
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
    expect(await stop(s)).toBe(0);
  }, 120_000);
});
