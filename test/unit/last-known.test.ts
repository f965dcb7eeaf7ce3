import { describe, expect, it, jest } from '@jest/globals';
import { DatabaseAvailability } from '../../src/domain/database-availability';
import { currentOrKept, type LastKnownPolicy } from '../../src/domain/last-known';
import { RegistrationBacklog } from '../../src/domain/metrics/registration-backlog';
import { createLogger } from '../../src/logger';

/** An error of the kind a stopped server gives (SQLSTATE 57P01, admin shutdown). */
const unreachable = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

function policy(probe: () => Promise<boolean> = async () => false, staleAfterMs = 50) {
  const availability = new DatabaseAvailability(probe, 10_000);
  const stale: string[] = [];
  const p: LastKnownPolicy = { availability, staleAfterMs, onStale: (door) => stale.push(door) };
  return { p, availability, stale };
}
const kept = { value: 'old', confirmedAt: 1000 };

describe('currentOrKept (src/domain/last-known.ts)', () => {
  it('answers from the database while it answers, and notes it reachable', async () => {
    const { p, availability, stale } = policy();
    availability.noteError(unreachable());
    expect(await currentOrKept(p, 'client_features', async () => 'new', () => undefined)).toEqual({ value: 'new' });
    expect([availability.reachable, stale]).toEqual([true, []]);
    availability.stop();
  });

  it('gives the kept value, with since when, when the database refuses as out of reach; rethrows anything else', async () => {
    const { p, availability, stale } = policy();
    expect(await currentOrKept(p, 'frontend', async () => { throw unreachable(); }, () => kept)).toEqual({ value: 'old', staleSince: new Date(1000) });
    expect(availability.unreachableSince).toBeInstanceOf(Date);
    expect(stale).toEqual(['frontend']);
    availability.noteReachable();
    const other = new Error('a bug');
    await expect(currentOrKept(p, 'frontend', async () => { throw other; }, () => kept)).rejects.toBe(other);
    availability.stop();
  });

  it('refuses with the outage error when nothing is kept', async () => {
    const { p, availability } = policy();
    const err = unreachable();
    await expect(currentOrKept(p, 'client_delta', async () => { throw err; }, () => undefined)).rejects.toBe(err);
    availability.stop();
  });

  it('does not ask a database known to be away when a value is kept, and answers a hanging one after its bound', async () => {
    let answers = true;
    const { p, availability, stale } = policy(async () => answers, 30);
    const fresh = jest.fn(() => new Promise<string>(() => {}));
    const started = Date.now();
    expect(await currentOrKept(p, 'client_features', fresh, () => kept)).toEqual({ value: 'old', staleSince: new Date(1000) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    await availability.check();
    expect(availability.reachable).toBe(true); // slow, and the probe answered: not away
    answers = false;
    await currentOrKept(p, 'client_features', fresh, () => kept);
    await availability.check();
    expect(availability.reachable).toBe(false); // the probe the late answer started went unanswered
    fresh.mockClear();
    expect((await currentOrKept(p, 'client_features', fresh, () => kept)).staleSince).toEqual(new Date(1000));
    expect(fresh).not.toHaveBeenCalled();
    expect(stale).toEqual(['client_features', 'client_features', 'client_features']);
    availability.stop();
  });

  it('does not wait again on a database in doubt: after a late answer, until the probe it started tells', async () => {
    let tell!: (answered: boolean) => void;
    const { p, availability } = policy(() => new Promise<boolean>((resolve) => { tell = resolve; }), 20);
    const fresh = jest.fn(() => new Promise<string>(() => {}));
    await currentOrKept(p, 'client_delta', fresh, () => kept);
    expect([fresh.mock.calls.length, availability.doubtful, availability.reachable]).toEqual([1, true, true]);
    const started = Date.now();
    await currentOrKept(p, 'client_delta', fresh, () => kept);
    expect([fresh.mock.calls.length, Date.now() - started < 15]).toEqual([1, true]);
    tell(true);
    await availability.check();
    expect(availability.doubtful).toBe(false);
    availability.stop();
  });

  it('only answers from the database without a policy', async () => {
    const err = unreachable();
    await expect(currentOrKept(undefined, 'frontend', async () => { throw err; }, () => kept)).rejects.toBe(err);
  });
});

describe('DatabaseAvailability', () => {
  it('turns away on an error that says so (not on others), probes until the database answers, and tells its listeners', async () => {
    let answers = false;
    const availability = new DatabaseAvailability(async () => answers, 20);
    const changes: boolean[] = [];
    availability.onChange((r) => changes.push(r));
    expect(availability.noteError(new Error('syntax error'))).toBe(false);
    expect(availability.reachable).toBe(true);
    expect(availability.noteError(unreachable())).toBe(true);
    expect(availability.noteError(unreachable())).toBe(true);
    expect(changes).toEqual([false]);
    answers = true;
    for (const end = Date.now() + 2000; !availability.reachable && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    expect(changes).toEqual([false, true]);
    answers = false;
    expect(await availability.check()).toBe(false); // a probe unanswered: away
    expect(changes).toEqual([false, true, false]);
    availability.stop();
  });
});

describe('RegistrationBacklog', () => {
  it('holds the latest per key up to its bound, writes in order once the database answers, and keeps them while it refuses', async () => {
    const backlog = new RegistrationBacklog(createLogger('silent'), 60_000, 2);
    const written: string[] = [];
    let away = true;
    const write = (name: string) => async () => { if (away) throw unreachable(); written.push(name); };
    expect(backlog.keep('a', write('a1'))).toBe(true);
    expect(backlog.keep('b', write('b1'))).toBe(true);
    expect(backlog.keep('a', write('a2'))).toBe(true); // replaces a's
    expect(backlog.keep('c', write('c1'))).toBe(false); // full
    await backlog.flush();
    expect([written, backlog.size]).toEqual([[], 2]);
    away = false;
    await backlog.flush();
    expect([written, backlog.size]).toEqual([['b1', 'a2'], 0]);
    await backlog.close();
  });
});
