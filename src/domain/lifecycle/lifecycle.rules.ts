import { isPotentiallyStale } from '../features/staleness';
import { LIFECYCLE_STAGES, type FeatureLifecycle, type LifecycleSource, type LifecycleStage, type LifecycleStageName } from './lifecycle.shapes';

const order = (s: LifecycleStageName) => LIFECYCLE_STAGES.indexOf(s);

/** The stages a flag entered, in lifecycle order: `initial` at its creation, `archived` while it is archived. */
export function stagesOf(source: LifecycleSource): LifecycleStage[] {
  const stages: LifecycleStage[] = [{ stage: 'initial', enteredStageAt: source.createdAt }];
  for (const r of [...source.recorded].sort((a, b) => order(a.stage) - order(b.stage))) {
    stages.push({
      stage: r.stage, enteredStageAt: r.enteredAt,
      ...(r.status ? { status: r.status } : {}), ...(r.statusValue !== null && r.status ? { statusValue: r.statusValue } : {}),
    });
  }
  if (source.archivedAt) stages.push({ stage: 'archived', enteredStageAt: source.archivedAt });
  return stages;
}

/** The flag's lifecycle at `now`: its current stage (the furthest one entered), each stage's span, and the warning. */
export function lifecycleOf(source: LifecycleSource, now: number): FeatureLifecycle {
  const stages = stagesOf(source);
  const spans = stages.map((s, i) => {
    const left = stages[i + 1]?.enteredStageAt ?? null;
    return { ...s, leftStageAt: left, durationMs: Math.max(0, (left === null ? now : Date.parse(left)) - Date.parse(s.enteredStageAt)) };
  });
  const current = stages[stages.length - 1];
  const completed = stages.find((s) => s.stage === 'completed');
  return {
    stage: current.stage,
    enteredStageAt: current.enteredStageAt,
    stages: spans,
    trafficAfterDiscard: completed?.status === 'discarded' && source.lastSeenAt !== null && Date.parse(source.lastSeenAt) > Date.parse(completed.enteredStageAt),
    potentiallyStale: isPotentiallyStale(source.stale, Date.parse(source.createdAt), source.lifetimeDays, now),
  };
}

/**
 * A flag's stage in one environment, where it can differ from the flag's: live once an SDK reported it in a production
 * environment, pre-live once reported elsewhere or switched on, initial before either.
 */
export function environmentStage(env: { type: string; enabled: boolean; lastSeenAt: string | null }): 'initial' | 'pre-live' | 'live' {
  if (env.lastSeenAt !== null) return env.type === 'production' ? 'live' : 'pre-live';
  return env.enabled ? 'pre-live' : 'initial';
}

/** A lifecycle's stages as REST lists them (without the spans GraphQL adds). */
export const restStages = (lifecycle: FeatureLifecycle): LifecycleStage[] =>
  lifecycle.stages.map(({ leftStageAt: _left, durationMs: _duration, ...stage }) => stage);
