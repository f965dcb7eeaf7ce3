import { expect, it } from '@jest/globals';
import { postgresBinaries, NEEDS_POSTGRES_BINARIES } from '../support/own-postgres';
import { runOutage, type OutageReport } from '../support/outage-load';
import { describeWhen, onPostgres } from '../support/skip';

/**
 * Issue 42's acceptance: the real service (startServer) on a PostgreSQL server of its own, under load, while the
 * server is stopped with a fast shutdown and started again, and while the network to it is cut (connections hang
 * rather than close) and restored (test/support/outage-load.ts runs it; bench/database-outage.ts prints its figures).
 * It needs PostgreSQL's programs rather than the suite's database, so it runs once, with the PostgreSQL run.
 */
const during = (r: OutageReport, a: { at: number }) => a.at >= r.outageAt && a.at < r.backAt;

function judge(r: OutageReport, writesRefusedWithin: number) {
  // SDK polls answered from the last state throughout: 200 or 304, never an error; stale only while it was away.
  expect(r.polls.filter((p) => p.status !== 304 && p.status !== 200)).toEqual([]);
  expect(r.polls.filter((p) => during(r, p)).length).toBeGreaterThan(5);
  expect(r.polls.some((p) => during(r, p) && p.stale)).toBe(true);
  // (A poll still waiting on the database when it went away is answered stale too: only those done before are checked.)
  expect(r.polls.filter((p) => p.at + p.ms < r.outageAt && p.stale)).toEqual([]);
  expect(r.frontend.filter((f) => f.status !== 200 || (f.at < r.backAt && !f.same))).toEqual([]);
  expect(r.frontend.some((f) => during(r, f) && f.stale)).toBe(true);
  // SDKs: none saw an error; the stream stayed open and carried the change made afterwards; the one started during
  // the outage got the flags.
  expect(r.sdkErrors).toEqual({ poller: [], streamer: [], late: [] });
  expect(r.streamerModeChanges).toEqual([]);
  expect(r.stream).toEqual({ ended: false, gotChangeAfter: true });
  expect(r.streamerGotChangeAfter).toBe(true);
  expect(r.lateSdk).toEqual({ synchronized: true, sameFlags: true });
  // Writes: acknowledged or refused by name with Retry-After, each answered within its bound.
  const refused = r.writes.filter((w) => w.status !== 201);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.filter((w) => w.status !== 503 || w.name !== 'ServiceUnavailableError' || w.retryAfter !== '5')).toEqual([]);
  expect(r.writes.filter((w) => w.ms > writesRefusedWithin)).toEqual([]);
  // No acknowledged write lost, nothing half-made: every flag has its event and every event its flag. (A write whose
  // commit the server made as it went down may have been answered 503: then it is whole too.)
  const acknowledged = r.writes.filter((w) => w.status === 201).map((w) => w.flag);
  expect(r.flags).toEqual(expect.arrayContaining(acknowledged));
  expect(r.createdEvents).toEqual(r.flags);
  // Health: live throughout; ready refused while away and good again after.
  expect(r.live.filter((l) => l.status !== 200)).toEqual([]);
  expect(r.ready.some((h) => during(r, h) && h.status === 503)).toBe(true);
  expect(r.ready.at(-1)!.status).toBe(200);
  // What SDKs reported meanwhile is counted afterwards.
  expect([r.metricsDuringOutage, r.registrationDuringOutage, r.metricsCounted, r.applicationRegistered]).toEqual([202, 202, 5, true]);
  // Writes work within a second of the database being back.
  expect(r.firstWriteMs).toBeGreaterThanOrEqual(0);
  expect(r.firstWriteMs).toBeLessThan(1000);
}

describeWhen(onPostgres && postgresBinaries() !== undefined, onPostgres ? NEEDS_POSTGRES_BINARIES : 'runs with the PostgreSQL run (DATABASE_URL=postgresql://...): it starts a PostgreSQL server of its own')('a database outage under load (issue 42)', () => {
  it('PostgreSQL stopped with a fast shutdown, then started again', async () => {
    judge(await runOutage('stop', 4000), 5000);
  }, 90_000);

  it('the network to PostgreSQL cut (connections hang), then restored: every wait bounded', async () => {
    // A statement on a hung connection is given up after DATABASE_STALL_TIMEOUT_MS (5 s) and a failed probe (3 s).
    judge(await runOutage('cut', 9000), 15_000);
  }, 90_000);
});
