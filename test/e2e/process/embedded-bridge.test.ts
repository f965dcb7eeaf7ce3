import { execFile } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';

/**
 * The embedded database's socket, settings and upkeep (issue 16, part 3), seen by test/support/embedded-probe.ts in a
 * child process (PGlite does not load inside jest's VM): an in-memory database exercised the way clients can.
 */
const ROOT = path.resolve(__dirname, '../../..');
let report: {
  wasmMemoryMiB: number;
  settings: Record<string, string>;
  planOfFullRead: string;
  secondClient: string;
  bigValue: { sent: number; received: number; same: boolean };
  heapGrowthMiB: number;
  firstMaintenance: string[];
  afterFirst: { reltuples: number; wal_since_checkpoint: number };
  secondMaintenance: string[];
  thirdMaintenance: string[];
  maintenanceInTransaction: string[] | null;
  afterAbandonedTransaction: { uncommitted: number; seqscan: string };
  afterFailedTransaction: { ok: number };
  startupByBytes: string;
  afterHalfAuthenticated: { ok: number };
};

beforeAll(async () => {
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS']) delete env[key];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'test/support/embedded-probe.ts')],
      { cwd: ROOT, env, maxBuffer: 16 * 2 ** 20 },
      (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out)));
  });
  report = JSON.parse(stdout.trim().split('\n').pop()!);
}, 120_000);

describe('the embedded database', () => {
  it('starts with a small buffer pool and the planner and log settings of a normal PostgreSQL', () => {
    expect(report.settings).toEqual({
      shared_buffers: '16MB', wal_buffers: '1MB', temp_buffers: '1MB', min_wal_size: '8MB', enable_seqscan: 'on', client_min_messages: 'notice', log_min_messages: 'warning', jit: 'off',
    });
    // PGlite's own start (shared_buffers 128MB) grew its WebAssembly memory to 174 MiB, which never shrinks; with
    // these settings it starts at about 32 MiB.
    expect(report.wasmMemoryMiB).toBeLessThan(48);
    // A whole-table read is a plain sequential scan, not one priced as forbidden (cost 1e10).
    expect(report.planOfFullRead).toMatch(/Seq Scan on probe {2}\(cost=0\.00\./);
  });

  it('keeps nothing of the answers it served', () => {
    // Through pglite-socket, 300 answers of 1000 rows left about 58 MiB of parsed messages on the heap.
    expect(report.heapGrowthMiB).toBeLessThan(8);
  });

  it('frames messages that arrive in many reads, and turns a second client away with PostgreSQL\'s error', () => {
    expect(report.bigValue).toEqual({ sent: 5 * 2 ** 20, received: 5 * 2 ** 20, same: true });
    expect(report.secondClient).toBe('53300');
  });

  it('ends what a client leaves open: its transaction is rolled back, a failed one too, and the session settings stay', () => {
    expect(report.afterAbandonedTransaction).toEqual({ uncommitted: 0, seqscan: 'on' });
    expect(report.afterFailedTransaction).toEqual({ ok: 1 });
    // A start-up packet a byte at a time gets its authentication request; the client leaving then troubles no one.
    expect(report.startupByBytes).toBe('R');
    expect(report.afterHalfAuthenticated).toEqual({ ok: 2 });
  });

  it('checkpoints, vacuums and analyses between the client\'s exchanges, and only then', () => {
    expect(report.firstMaintenance).toEqual(['analyze public.probe', 'checkpoint']);
    expect(report.afterFirst.reltuples).toBe(100000);
    expect(report.afterFirst.wal_since_checkpoint).toBeLessThan(2 ** 20);
    expect(report.secondMaintenance).toContain('vacuum (analyze) public.probe');
    expect(report.thirdMaintenance).toEqual([]);
    expect(report.maintenanceInTransaction).toBeNull();
  });
});
