import { relativeTime } from '../../logic/flag-list';

/** A moment as "3 minutes ago", its full date and time on hover, and machine-readable for assistive technology. */
export function When({ iso }: { iso: string }) {
  return <time dateTime={iso} title={new Date(iso).toLocaleString()}>{relativeTime(iso)}</time>;
}
