import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { serviceFleet, type ServiceProcess } from '../../support/service-process';
import { adminApi, expectAcknowledgedKept, holdings, startWriters, writeFlag, type Call, type Flag } from '../../support/write-load';

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

const api = (service: ServiceProcess): Call => adminApi(service.port, TOKEN);

describe('backup and restore of the embedded database', () => {
  let service: ServiceProcess;
  let call: Call;
  let dataDir: string;
  const work = path.join(fleet.newFolder(), '..', 'files');
  const backupFile = path.join(work, 'flagdeck.backup');
  const before: Flag[] = Array.from({ length: 20 }, (_, i) => ({ name: `before-${i}` }));
  let during: Flag[] = [];
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
    const writers = startWriters(call, 4, 'during');
    during = writers.flags;
    await new Promise((resolve) => setTimeout(resolve, 300));
    began = Date.now();
    backupRun = await npmRun('backup', [backupFile], { FLAGDECK_URL: `http://127.0.0.1:${service.port}`, FLAGDECK_TOKEN: TOKEN });
    finished = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writers.stop();
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
    expect(expectAcknowledgedKept([...before, ...during], began, await holdings(read))).toBeGreaterThan(before.length);
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
