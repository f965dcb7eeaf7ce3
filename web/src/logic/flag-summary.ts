// Readable summaries of a flag's strategies, constraints and variants for the flag page, and the strategy reordering:
// plain computations, unit tested in test/unit/web-flag-summary.test.ts.
import { operatorLabel } from './constraints';

/** Display names of the built-in strategy types (custom ones keep their own name). */
const STRATEGY_LABELS: Record<string, string> = {
  default: 'Standard',
  flexibleRollout: 'Gradual rollout',
  userWithId: 'User IDs',
  remoteAddress: 'IPs',
  applicationHostname: 'Hosts',
  gradualRolloutUserId: 'Gradual rollout by user id',
  gradualRolloutSessionId: 'Gradual rollout by session id',
  gradualRolloutRandom: 'Random gradual rollout',
};

export function strategyLabel(name: string): string {
  return STRATEGY_LABELS[name] ?? name;
}

/** What a user reads for a strategy: its title when it has one, else its type's name. */
export function strategyHeading(strategy: { name: string; title?: string | null }): string {
  return strategy.title?.trim() ? strategy.title.trim() : strategyLabel(strategy.name);
}

/** The accessible name part of the move buttons ("Move <title or name> up"). */
export function strategyMoveName(strategy: { name: string; title?: string | null }): string {
  return strategy.title?.trim() ? strategy.title.trim() : strategy.name;
}

const asRecord = (p: unknown): Record<string, unknown> => (p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {});
const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const list = (v: unknown): string => text(v).split(',').map((s) => s.trim()).filter(Boolean).join(', ');

/**
 * One line that says what a strategy's parameters do, for example "50% of userId, group id my-flag". Unknown
 * parameters (custom strategies) are listed as `name: value`.
 */
export function parameterSummary(name: string, parameters: unknown): string {
  const p = asRecord(parameters);
  switch (name) {
    case 'default':
      return 'On for everyone';
    case 'flexibleRollout': {
      const rollout = text(p.rollout) || '100';
      const stickiness = text(p.stickiness) || 'default';
      const group = text(p.groupId);
      return `${rollout}% of ${stickiness}${group ? `, group id ${group}` : ''}`;
    }
    case 'gradualRolloutUserId':
    case 'gradualRolloutSessionId': {
      const group = text(p.groupId);
      const by = name === 'gradualRolloutUserId' ? 'userId' : 'sessionId';
      return `${text(p.percentage) || '0'}% of ${by}${group ? `, group id ${group}` : ''}`;
    }
    case 'gradualRolloutRandom':
      return `${text(p.percentage) || '0'}% at random`;
    case 'userWithId':
      return `Users: ${list(p.userIds) || 'none'}`;
    case 'remoteAddress':
      return `IPs: ${list(p.IPs) || 'none'}`;
    case 'applicationHostname':
      return `Hosts: ${list(p.hostNames) || 'none'}`;
    default: {
      const entries = Object.entries(p);
      return entries.length === 0 ? 'No parameters' : entries.map(([k, v]) => `${k}: ${text(v)}`).join('; ');
    }
  }
}

export interface ConstraintLike {
  contextName: string;
  operator: string;
  values?: readonly string[] | null;
  value?: string | null;
  caseInsensitive: boolean;
  inverted: boolean;
}

/** The values a constraint compares with: the list operators' values, or the single value of the others. */
export function constraintValues(c: ConstraintLike): string[] {
  if (c.values && c.values.length > 0) return [...c.values];
  return c.value !== undefined && c.value !== null && c.value !== '' ? [c.value] : [];
}

/** "userId not is one of a, b (case-insensitive)": the whole constraint in one sentence, for reading and for tests. */
export function constraintSentence(c: ConstraintLike): string {
  const values = constraintValues(c);
  const shown = values.length > 10 ? `${values.slice(0, 10).join(', ')} and ${values.length - 10} more` : values.join(', ');
  return `${c.contextName} ${c.inverted ? 'not ' : ''}${operatorLabel(c.operator)} ${shown || '(no value)'}${c.caseInsensitive ? ' (case-insensitive)' : ''}`;
}

/** A variant weight (per mille) as a percentage: 333 → "33.3%". */
export function weightPercent(weight: number): string {
  return `${Math.round(weight) / 10}%`;
}

/**
 * The sort orders after moving the strategy at `index` by `delta` places (−1 up, +1 down), numbered 0..n−1 in the new
 * order; null when the move would leave the list.
 */
export function movedSortOrder(ids: readonly string[], index: number, delta: -1 | 1): Array<{ id: string; sortOrder: number }> | null {
  const target = index + delta;
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return null;
  const next = [...ids];
  [next[index], next[target]] = [next[target], next[index]];
  return next.map((id, sortOrder) => ({ id, sortOrder }));
}
