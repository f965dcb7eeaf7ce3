import { describe, expect, it } from '@jest/globals';
import { environmentStage, lifecycleOf, stagesOf } from '../../src/domain/lifecycle/lifecycle.rules';
import type { LifecycleSource } from '../../src/domain/lifecycle/lifecycle.shapes';

const DAY = 24 * 3600 * 1000;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const source = (over: Partial<LifecycleSource> = {}): LifecycleSource => ({
  createdAt: at(0), archivedAt: null, lastSeenAt: null, stale: false, lifetimeDays: null, recorded: [], ...over,
});

describe('lifecycle rules', () => {
  it('orders recorded stages by the lifecycle, not by when they were written, between initial and archived', () => {
    const s = source({
      archivedAt: at(9 * DAY),
      recorded: [
        { stage: 'completed', enteredAt: at(5 * DAY), status: 'kept', statusValue: 'blue' },
        { stage: 'live', enteredAt: at(2 * DAY), status: null, statusValue: null },
        { stage: 'pre-live', enteredAt: at(2 * DAY), status: null, statusValue: null },
      ],
    });
    expect(stagesOf(s)).toEqual([
      { stage: 'initial', enteredStageAt: at(0) },
      { stage: 'pre-live', enteredStageAt: at(2 * DAY) },
      { stage: 'live', enteredStageAt: at(2 * DAY) },
      { stage: 'completed', enteredStageAt: at(5 * DAY), status: 'kept', statusValue: 'blue' },
      { stage: 'archived', enteredStageAt: at(9 * DAY) },
    ]);
  });

  it('gives each stage the time until the next one, and the current one the time until now', () => {
    const l = lifecycleOf(source({ recorded: [{ stage: 'pre-live', enteredAt: at(DAY), status: null, statusValue: null }] }), Date.parse(at(3 * DAY)));
    expect(l.stage).toBe('pre-live');
    expect(l.stages.map((s) => [s.stage, s.leftStageAt, s.durationMs])).toEqual([['initial', at(DAY), DAY], ['pre-live', null, 2 * DAY]]);
  });

  it('warns about a discarded flag only when it was reported after being discarded', () => {
    const discarded = { stage: 'completed' as const, enteredAt: at(DAY), status: 'discarded' as const, statusValue: null };
    expect(lifecycleOf(source({ recorded: [discarded], lastSeenAt: at(DAY / 2) }), Date.parse(at(2 * DAY))).trafficAfterDiscard).toBe(false);
    expect(lifecycleOf(source({ recorded: [discarded], lastSeenAt: at(DAY + 1) }), Date.parse(at(2 * DAY))).trafficAfterDiscard).toBe(true);
    expect(lifecycleOf(source({ recorded: [{ ...discarded, status: 'kept' }], lastSeenAt: at(DAY + 1) }), Date.parse(at(2 * DAY))).trafficAfterDiscard).toBe(false);
  });

  it('calls a flag potentially stale once its type’s lifetime passed, unless it is marked stale', () => {
    const now = Date.parse(at(40 * DAY));
    expect(lifecycleOf(source({ lifetimeDays: 40 }), now).potentiallyStale).toBe(true);
    expect(lifecycleOf(source({ lifetimeDays: 41 }), now).potentiallyStale).toBe(false);
    expect(lifecycleOf(source({ lifetimeDays: 40, stale: true }), now).potentiallyStale).toBe(false);
    expect(lifecycleOf(source({ lifetimeDays: null }), now).potentiallyStale).toBe(false);
  });

  it('puts an environment at live only when reported in production', () => {
    expect(environmentStage({ type: 'production', enabled: true, lastSeenAt: at(0) })).toBe('live');
    expect(environmentStage({ type: 'development', enabled: false, lastSeenAt: at(0) })).toBe('pre-live');
    expect(environmentStage({ type: 'production', enabled: true, lastSeenAt: null })).toBe('pre-live');
    expect(environmentStage({ type: 'production', enabled: false, lastSeenAt: null })).toBe('initial');
  });
});
