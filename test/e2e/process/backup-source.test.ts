import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';

/**
 * The embedded database's backup source (src/db/backup/take.ts and src/db/embedded-snapshot.ts) on a database of its
 * own, driven by test/support/backup-source-probe.ts in a child process: one backup at a time, a copy that fails
 * half-way leaves the next one possible, and a backup restores into a folder that opens with what was written before
 * it was taken and nothing written after.
 */
const ROOT = path.resolve(__dirname, '../../..');

describe('the embedded backup source', () => {
  it('takes one backup at a time, recovers from a failed copy, and restores what was written before it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/backup-source-probe.ts')], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result.concurrent.sort()).toEqual(['ConflictError: A backup is being taken: try again when it has finished.', 'taken']);
    expect(result.failed).toBe('connection lost at the end of the copy');
    expect(result.hasLabel).toBe(true);
    expect(result.walFiles).toBeGreaterThan(0);
    expect(result.heldMs).toBeGreaterThan(0);
    expect(result.restoredNames).toEqual(['backup-source']);
  }, 60_000);
});
