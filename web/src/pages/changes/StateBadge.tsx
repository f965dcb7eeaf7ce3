import { Badge } from '@mantine/core';

// Dark enough on their light backgrounds for the contrast rule (axe): the filled variant with these shades.
const COLORS: Record<string, string> = {
  Draft: 'gray.7',
  'In review': 'blue.8',
  Approved: 'teal.9',
  Scheduled: 'violet.8',
  Applied: 'green.9',
  Rejected: 'red.8',
  Cancelled: 'dark.4',
};

/** A change request's state as a badge (its own words: Draft, In review, Approved, …). */
export function StateBadge({ state, size = 'md' }: { state: string; size?: 'md' | 'lg' }) {
  return <Badge color={COLORS[state] ?? 'gray.7'} variant="filled" tt="none" size={size}>{state}</Badge>;
}
