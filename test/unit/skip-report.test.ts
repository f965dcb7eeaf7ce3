import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { fileRecord, main, markTitle, neverRan, NO_REASON, skipLines, type AssertionLike, type RunRecord } from '../support/skip-report';

/** Issue 31: skipped suites say why, and .ci/run fails when every run skipped one (test/support/skip-report.js). */
const test = (ancestorTitles: string[], title: string, status: string): AssertionLike => ({ ancestorTitles, title, status });
const PG = 'needs PostgreSQL';
const F = 'test/e2e/a.test.ts';

describe('fileRecord and skipLines', () => {
  it('a file none of whose tests ran is skipped as a whole, with its blocks\' reason, in one line', () => {
    const record = fileRecord(F, [test([markTitle('several instances', PG)], 'one', 'pending'), test([markTitle('several instances', PG)], 'two', 'pending')]);
    expect(record.wholeFile).toBe(true);
    expect([...record.skipped]).toEqual([[`${F} › several instances`, PG], [F, PG]]);
    expect(record.ran.size).toBe(0);
    expect(skipLines(F, record)).toEqual([`skipped ${F}: ${PG}`]);
  });

  it('a file skipped without the helper is still reported, saying it gives no reason', () => {
    const record = fileRecord(F, [test(['plain skip'], 'one', 'pending')]);
    expect(record.skipped.get(F)).toBe(NO_REASON);
    expect(skipLines(F, record)).toEqual([`skipped ${F}: ${NO_REASON}`]);
  });

  it('in a file that ran, each marked block skipped is a line, and the blocks that ran are recorded by their titles', () => {
    const record = fileRecord(F, [
      test(['door'], 'answers', 'passed'),
      test(['door'], markTitle('two instances agree', PG), 'pending'),
      test(['door'], 'plain skip', 'pending'),
      test([], 'fails', 'failed'),
    ]);
    expect(record.wholeFile).toBe(false);
    expect([...record.skipped]).toEqual([[`${F} › door › two instances agree`, PG]]);
    expect([...record.ran].sort()).toEqual([F, `${F} › door`, `${F} › door › answers`, `${F} › fails`]);
    expect(skipLines(F, record)).toEqual([`skipped ${F} › door › two instances agree: ${PG}`]);
  });

  it('a reason may hold brackets', () => {
    const record = fileRecord(F, [test([], markTitle('t', 'no Chromium [apt-get install chromium]'), 'pending')]);
    expect(record.skipped.get(`${F} › t`)).toBe('no Chromium [apt-get install chromium]');
  });
});

describe('neverRan', () => {
  const postgres: RunRecord = { ran: [F, `${F} › two instances agree`, 'test/e2e/b.test.ts'], skipped: {} };
  const embedded: RunRecord = { ran: [F, 'test/e2e/b.test.ts'], skipped: { [`${F} › two instances agree`]: PG, 'test/e2e/c.test.ts': PG } };

  it('is empty when every skip of one run ran in another', () => {
    expect(neverRan([postgres, { ...embedded, skipped: { [`${F} › two instances agree`]: PG } }])).toEqual([]);
  });

  it('names what both runs skipped, with both reasons', () => {
    const other: RunRecord = { ran: [F], skipped: { 'test/e2e/c.test.ts': 'no Chromium' } };
    expect(neverRan([other, embedded])).toEqual([
      { what: `${F} › two instances agree`, reasons: [PG] },
      { what: 'test/e2e/c.test.ts', reasons: ['no Chromium', PG] },
    ]);
  });

  it('counts a file one run skipped and the other does not have (test/e2e/process on PostgreSQL) as never run', () => {
    expect(neverRan([postgres, embedded])).toEqual([{ what: 'test/e2e/c.test.ts', reasons: [PG] }]);
  });

  it('names a file that never ran once, not with each of its blocks', () => {
    const skippedFile: RunRecord = { ran: [], skipped: { [F]: PG, [`${F} › x`]: PG, [`${F} › y`]: PG } };
    expect(neverRan([skippedFile, skippedFile])).toEqual([{ what: F, reasons: [PG] }]);
  });
});

describe('main (as .ci/run calls it)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skip-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, run: RunRecord) => { const p = path.join(dir, name); writeFileSync(p, JSON.stringify(run)); return p; };

  it('exits 0 when each skip ran elsewhere, 1 naming it when both runs skipped it, 1 when a record is missing', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const a = write('a.json', { ran: [F], skipped: { 'test/e2e/c.test.ts': PG } });
      const b = write('b.json', { ran: [F, 'test/e2e/c.test.ts'], skipped: {} });
      const c = write('c.json', { ran: [F], skipped: { 'test/e2e/c.test.ts': 'no Chromium' } });
      expect(main([a, b])).toBe(0);
      expect(errors).not.toHaveBeenCalled();
      expect(main([a, c])).toBe(1);
      expect(errors.mock.calls.map((call) => call[0])).toEqual(['== skipped by every run, so CI never ran it:', `  test/e2e/c.test.ts: ${PG}; no Chromium`]);
      errors.mockClear();
      expect(main([a, path.join(dir, 'absent.json')])).toBe(1);
      expect(String(errors.mock.calls[0][0])).toMatch(/no record of skipped tests/);
    } finally {
      errors.mockRestore();
    }
  });
});
