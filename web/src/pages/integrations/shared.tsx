import { Text } from '@mantine/core';
import { relativeTime } from '../../logic/flag-list';

/** A point in time as "3 minutes ago", the exact local time on hover; "never" (dimmed) for none. */
export function When({ iso, never = 'never' }: { iso: string | null | undefined; never?: string }) {
  if (!iso) return <Text span size="sm" c="dimmed">{never}</Text>;
  return <time dateTime={iso} title={new Date(iso).toLocaleString()}>{relativeTime(iso)}</time>;
}
