import { describe, expect, it } from '@jest/globals';
import { serializeAnswer } from '../../src/rest/sdk/client-answers';
import { VersionReader } from '../../src/domain/client-features/version-reader';
import type { ClientFeatureSnapshot } from '../../src/domain/client-features/client-features.read-model';
import { ModelVersionSignal } from '../../src/domain/events/event-hub';

describe('VersionReader', () => {
  it('gives each caller a value read after it asked: callers during a read share the next one, never the one under way', async () => {
    let value = 0;
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const reader = new VersionReader(() => {
      started.push(value);
      return new Promise<string>((resolve) => { const seen = value; finish.push(() => resolve(String(seen))); });
    });
    const first = reader.current(); // read 1 starts at once, sees 0
    value = 1; // a commit lands while read 1 is under way
    const second = reader.current(); // must not get read 1's value
    const third = reader.current(); // shares read 2 with `second`
    expect(started).toEqual([0]);
    finish[0]();
    expect(await first).toBe('0');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    finish[1]();
    expect([await second, await third]).toEqual(['1', '1']);
    expect(started).toHaveLength(2);
  });

  describe('with a watched signal', () => {
    /** A reader over a counter that a test moves, counting the reads; reads resolve when the test says. */
    function watchedReader(maxAgeMs = 60_000) {
      // The reader's own clock, moved by the test: an age never runs out because the machine is slow.
      const state = { value: 1, reads: 0, now: 0 };
      const pending: Array<() => void> = [];
      const signal = new ModelVersionSignal();
      const reader = new VersionReader(() => {
        state.reads += 1;
        const seen = state.value;
        return new Promise<string>((resolve) => pending.push(() => resolve(String(seen))));
      }, signal, maxAgeMs, () => state.now);
      const settle = async <T>(p: Promise<T>) => { while (pending.length) pending.shift()!(); return p; };
      return { state, signal, reader, settle };
    }

    it('not watched: every caller gets a read of its own (as without a signal)', async () => {
      const { state, reader, settle } = watchedReader();
      await settle(reader.current());
      await settle(reader.current());
      expect(state.reads).toBe(2);
    });

    it('watched: a value read while watching is given without reading until the signal moves', async () => {
      const { state, signal, reader, settle } = watchedReader();
      signal.setWatching(true);
      expect(await settle(reader.current())).toBe('1');
      state.value = 2; // a commit whose notification has not arrived: not seen yet (the bounded window)
      expect([await reader.current(), await reader.current(), state.reads]).toEqual(['1', '1', 1]);
      signal.moved(); // the notification (or this instance's own commit)
      expect([await settle(reader.current()), state.reads]).toEqual(['2', 2]);
      expect([await reader.current(), state.reads]).toEqual(['2', 2]);
    });

    it('a move heard while a read is under way: that read answers its callers but is not trusted afterwards', async () => {
      const { state, signal, reader, settle } = watchedReader();
      signal.setWatching(true);
      const underway = reader.current(); // issued, sees value 1
      state.value = 2;
      signal.moved(); // the commit of value 2 is announced before the read returns
      expect(await settle(underway)).toBe('1');
      expect([await settle(reader.current()), state.reads]).toEqual(['2', 2]);
    });

    it('watching ending (connection lost) or starting again distrusts what was read; a trusted value ages out', async () => {
      const { state, signal, reader, settle } = watchedReader(40);
      signal.setWatching(true);
      await settle(reader.current());
      signal.setWatching(false);
      state.value = 5;
      expect([await settle(reader.current()), await settle(reader.current()), state.reads]).toEqual(['5', '5', 3]);
      signal.setWatching(true);
      await settle(reader.current());
      expect([await reader.current(), state.reads]).toEqual(['5', 4]);
      state.value = 6; // its notification is lost: served at most maxAgeMs more
      state.now += 39;
      expect([await reader.current(), state.reads]).toEqual(['5', 4]);
      state.now += 1;
      expect([await settle(reader.current()), state.reads]).toEqual(['6', 5]);
    });
  });

  it('a failed read fails its callers only; the next caller reads again', async () => {
    let fail = true;
    const reader = new VersionReader(async () => { if (fail) throw new Error('down'); return '7'; });
    await expect(reader.current()).rejects.toThrow('down');
    fail = false;
    expect(await reader.current()).toBe('7');
  });
});

describe('serializeAnswer', () => {
  const snapshot: ClientFeatureSnapshot = {
    version: '3',
    features: [{
      name: 'f', type: 'release', description: null, enabled: true, stale: false, impressionData: false, project: 'p', variants: [],
      strategies: [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }], parameters: {}, variants: [], segments: [2] }],
    }],
    segments: [{ id: 2, name: 'seg', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }],
  };
  const scope = { environment: 'development', projects: ['p'], tags: [] };

  it('separate: segments once, referenced by id; inline: their constraints after the strategy\'s own, no segments', () => {
    const separate = JSON.parse(serializeAnswer(snapshot, { scope, mode: 'separate' }).body.toString());
    expect(separate.segments).toEqual(snapshot.segments);
    expect(separate.features[0].strategies[0].segments).toEqual([2]);
    const inline = JSON.parse(serializeAnswer(snapshot, { scope, mode: 'inline' }).body.toString());
    expect(Object.keys(inline)).toEqual(['version', 'features', 'query']);
    expect(inline.features[0].strategies[0].segments).toBeUndefined();
    expect(inline.features[0].strategies[0].constraints.map((c: any) => c.contextName)).toEqual(['userId', 'region']);
    expect(inline.query).toEqual({ project: ['p'], environment: 'development', inlineSegmentConstraints: true });
  });

  it('the ETag is a digest of the bytes: the same content at another version has the same ETag; single features have their own', () => {
    const a = serializeAnswer(snapshot, { scope, mode: 'separate' });
    const b = serializeAnswer({ ...snapshot, version: '9' }, { scope, mode: 'separate' });
    expect(a.etag).toBe(b.etag);
    expect(a.feature('f')!.etag).not.toBe(a.etag);
    expect(JSON.parse(a.feature('f')!.body.toString())).toEqual(JSON.parse(a.body.toString()).features[0]);
    expect(a.feature('missing')).toBeUndefined();
  });
});
