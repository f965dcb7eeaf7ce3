import { Badge } from '@mantine/core';

// The light variant: the theme gives each colour's light text a shade that passes the contrast rule.
const COLORS: Record<string, string> = {
  Draft: 'gray',
  'In review': 'blue',
  Approved: 'teal',
  Scheduled: 'violet',
  Applied: 'green',
  Rejected: 'red',
  Cancelled: 'dark',
};

/** A change request's state as a badge (its own words: Draft, In review, Approved, …). */
export function StateBadge({ state, size = 'md' }: { state: string; size?: 'md' | 'lg' }) {
  return <Badge color={COLORS[state] ?? 'gray'} variant="light" tt="none" size={size}>{state}</Badge>;
}
