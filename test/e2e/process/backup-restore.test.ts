import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceFleet, type ServiceProcess } from '../../support/service-process';

/**
 * Backups of the embedded database, end to end with the README's commands: a service on a data folder takes writes
 * from several clients while `npm run backup` saves a backup; `npm run restore` puts it into a new folder, and a
 * service started there holds every change acknowledged before the backup began (with its events), and no change
 * half-made. Then the refusals of both commands, each with its own message.
 */
const ROOT = path.resolve(__dirname, '../../..');
const TOKEN = '*:*.backup-restore-admin-token';
const fleet = serviceFleet('flagdeck-backup-', { INIT_ADMIN_API_TOKENS: TOKEN, INIT_ADMIN_PASSWORD: 'Backup-test-password-1' });
jest.setTimeout(180_000);

afterAll(() => fleet.cleanup());

interface Run { code: number | null; stdout: string; stderr: string }

/** `npm run --silent <script> -- <args>` with `env` over the test's environment (its database variables removed). */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS']) delete base[key];
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

function api(service: ServiceProcess) {
  return async (method: string, url: string, body?: unknown, token = TOKEN): Promise<{ status: number; json: any }> => {
    const res = await fetch(`http://127.0.0.1:${service.port}${url}`, {
      method, headers: { Authorization: token, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
}

/** One flag's life, each step's acknowledgement time recorded (undefined: not acknowledged). */
interface Flag { name: string; created?: number; strategy?: number; enabled?: number }

/** create → default strategy in development → switched on in development; stops at the first refusal. */
async function writeFlag(call: ReturnType<typeof api>, flag: Flag): Promise<void> {
  const base = `/api/admin/projects/default/features`;
  if ((await call('POST', base, { name: flag.name })).status !== 201) return;
  flag.created = Date.now();
  if ((await call('POST', `${base}/${flag.name}/environments/development/strategies`, { name: 'default' })).status !== 200) return;
  flag.strategy = Date.now();
  if ((await call('POST', `${base}/${flag.name}/environments/development/on`)).status !== 200) return;
  flag.enabled = Date.now();
}

describe('backup and restore of the embedded database', () => {
  let service: ServiceProcess;
  let call: ReturnType<typeof api>;
  let dataDir: string;
  const work = path.join(fleet.newFolder(), '..', 'files');
  const backupFile = path.join(work, 'flagdeck.backup');
  const before: Flag[] = Array.from({ length: 20 }, (_, i) => ({ name: `before-${i}` }));
  const during: Flag[] = [];
  let began = 0;
  let finished = 0;
  let backupRun: Run;

  beforeAll(async () => {
    mkdirSync(work, { recursive: true });
    dataDir = fleet.newFolder();
    service = await fleet.start(dataDir);
    call = api(service);
    for (const flag of before) await writeFlag(call, flag);
    // Four writers keep going from before the backup starts until after it has finished.
    let stop = false;
    let n = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const flag: Flag = { name: `during-${n++}` };
        during.push(flag);
        await writeFlag(call, flag);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    began = Date.now();
    backupRun = await npmRun('backup', [backupFile], { FLAGDECK_URL: `http://127.0.0.1:${service.port}`, FLAGDECK_TOKEN: TOKEN });
    finished = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop = true;
    await Promise.all(writers);
  });

  it('saves a checked backup while writes go on', () => {
    expect(backupRun.stderr).toBe('');
    expect(backupRun.code).toBe(0);
    expect(backupRun.stdout).toMatch(/^Saved .*flagdeck\.backup: [\d.]+ MiB, the database of flagdeck .* \(\d+ files, checked\)\.\n$/);
    expect(existsSync(`${backupFile}.partial`)).toBe(false);
    // The load really overlapped the backup: writes were acknowledged while it was being taken.
    expect(during.filter((f) => f.created && f.created > began && f.created < finished).length).toBeGreaterThan(0);
  });

  it('restores into a new folder, and the service there holds every change acknowledged before the backup began, with its events', async () => {
    const restoredDir = path.join(work, 'restored');
    const restore = await npmRun('restore', [backupFile], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored ${backupFile} into ${restoredDir}`);
    expect(readdirSync(restoredDir)).toEqual(['pglite']);

    const restored = await fleet.start(restoredDir);
    const read = api(restored);
    const { json: listed } = await read('GET', '/api/admin/projects/default/features');
    const present = new Map<string, any>(listed.features.map((f: any) => [f.name, f]));
    const events = new Set<string>();
    for (let offset = 0; ; offset += 1000) {
      const { json: page } = await read('GET', `/api/admin/events?limit=1000&offset=${offset}`);
      for (const e of page.events) events.add(`${e.type} ${e.featureName}`);
      if (page.events.length < 1000) break;
    }

    const acknowledgedBefore = [...before, ...during].filter((f) => f.created !== undefined && f.created < began);
    expect(acknowledgedBefore.length).toBeGreaterThan(before.length);
    for (const flag of acknowledgedBefore) {
      const feature = present.get(flag.name);
      expect(feature).toBeDefined();
      expect(events.has(`feature-created ${flag.name}`)).toBe(true);
      const development = feature.environments.find((e: any) => e.name === 'development');
      if (flag.strategy! < began) {
        expect(development.hasStrategies ?? development.strategies?.length > 0).toBeTruthy();
        expect(events.has(`feature-strategy-add ${flag.name}`)).toBe(true);
      }
      if (flag.enabled! < began) {
        expect(development.enabled).toBe(true);
        expect(events.has(`feature-environment-enabled ${flag.name}`)).toBe(true);
      }
    }
    // Nothing half-made: every flag the copy holds has its creation event, every enabled one its events.
    for (const [name, feature] of present) {
      expect(events.has(`feature-created ${name}`)).toBe(true);
      if (feature.environments.find((e: any) => e.name === 'development').enabled) expect(events.has(`feature-environment-enabled ${name}`)).toBe(true);
    }
    // And it serves writes and SDKs as any database does.
    expect((await read('POST', '/api/admin/projects/default/features', { name: 'after-restore' })).status).toBe(201);
    const { json: sdk } = await read('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
    const { json: served } = await read('GET', '/api/client/features', undefined, sdk.secret);
    expect(served.features.find((f: any) => f.name === 'before-0')).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    await fleet.stop(restored);
  });

  it('refuses a folder in use, a folder not empty, and files that are not whole backups, each saying so and changing nothing', async () => {
    const refuse = async (file: string, folder: string) => {
      const run = await npmRun('restore', [file], { DATA_DIR: folder });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      return run.stderr;
    };
    const full = path.join(work, 'full');
    mkdirSync(full);
    writeFileSync(path.join(full, 'notes.txt'), 'mine');
    const bytes = readFileSync(backupFile);
    const truncated = path.join(work, 'truncated.backup');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const damaged = path.join(work, 'damaged.backup');
    const flipped = Buffer.from(bytes);
    for (let i = 0; i < 16; i++) flipped[Math.floor(bytes.length / 2) + i * 997] ^= 0x55;
    writeFileSync(damaged, flipped);
    const other = path.join(work, 'other.backup');
    copyFileSync(path.join(ROOT, 'package.json'), other);

    const [inUse, notEmpty, incomplete, broken, notBackup] = await Promise.all([
      refuse(backupFile, dataDir), refuse(backupFile, full), refuse(truncated, path.join(work, 'r1')),
      refuse(damaged, path.join(work, 'r2')), refuse(other, path.join(work, 'r3')),
    ]);
    expect(inUse).toContain(`the data folder ${dataDir} is in use by process ${service.pid}`);
    expect(notEmpty).toContain(`the data folder ${full} is not empty (it holds notes.txt)`);
    expect(readdirSync(full)).toEqual(['notes.txt']);
    expect(incomplete).toContain(`${truncated} is incomplete`);
    expect(broken).toMatch(new RegExp(`${damaged} is (damaged|incomplete)`));
    expect(notBackup).toContain(`${other} is not a flagdeck backup`);
    // The refused restores left no folder behind.
    for (const name of ['r1', 'r2', 'r3']) expect(existsSync(path.join(work, name))).toBe(false);
  });

  it('takes backups for admins only, and never overwrites a file', async () => {
    expect((await call('GET', '/api/admin/backup', undefined, '')).status).toBe(401);
    const { json: token } = await call('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
    const client = await call('GET', '/api/admin/backup', undefined, token.secret);
    expect(client.status).toBe(403);
    const exists = await npmRun('backup', [backupFile], { FLAGDECK_URL: `http://127.0.0.1:${service.port}`, FLAGDECK_TOKEN: TOKEN });
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain(`${backupFile} already exists`);
    const wrong = await npmRun('backup', [path.join(work, 'x.backup')], { FLAGDECK_URL: `http://127.0.0.1:${service.port}`, FLAGDECK_TOKEN: 'default:development.unknown' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the service answered 401 AuthenticationRequired');
    expect(existsSync(path.join(work, 'x.backup'))).toBe(false);
  });
});
