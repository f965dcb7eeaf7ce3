import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** Unleash 6.2's lifecycle stages, in the order a flag goes through them. */
export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
export type LifecycleStageName = (typeof LIFECYCLE_STAGES)[number];

/** How a completed flag ended: kept (its code path stays, `statusValue` may name the variant kept) or discarded. */
export const COMPLETED_STATUSES = ['kept', 'discarded'] as const;
export type CompletedStatus = (typeof COMPLETED_STATUSES)[number];

/** A stage as REST lists it (`GET …/features/:featureName/lifecycle`, as Unleash 6 answers). */
export const LifecycleStage = named('FeatureLifecycleStage', z.object({
  stage: z.enum(LIFECYCLE_STAGES),
  enteredStageAt: timestamp.describe('When the flag entered the stage'),
  status: z.enum(COMPLETED_STATUSES).optional().describe('Completed only: kept or discarded'),
  statusValue: z.string().optional().describe('Completed only: what was kept (a variant, say), if given'),
}), 'A lifecycle stage the flag entered');
export type LifecycleStage = z.output<typeof LifecycleStage>;

/** A stage with the time spent in it (GraphQL). */
export interface LifecycleStageSpan extends LifecycleStage {
  /** When the next stage was entered; null for the current one. */
  leftStageAt: string | null;
  /** Milliseconds spent in it, until now for the current stage. */
  durationMs: number;
}

/** A flag's lifecycle: where it is, how it got there, and the warning a discarded flag still in use deserves. */
export interface FeatureLifecycle {
  stage: LifecycleStageName;
  enteredStageAt: string;
  stages: LifecycleStageSpan[];
  /** Completed as discarded, yet an SDK reported it after that. */
  trafficAfterDiscard: boolean;
  /** Not marked stale, and older than its type's expected lifetime. */
  potentiallyStale: boolean;
}

/** A flag's row and its recorded stages, as the read model loads them. */
export interface LifecycleSource {
  createdAt: string;
  archivedAt: string | null;
  lastSeenAt: string | null;
  stale: boolean;
  /** Its type's expected lifetime (null: none). */
  lifetimeDays: number | null;
  recorded: Array<{ stage: LifecycleStageName; enteredAt: string; status: CompletedStatus | null; statusValue: string | null }>;
}
