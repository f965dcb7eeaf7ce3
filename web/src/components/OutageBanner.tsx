import { Alert } from '@mantine/core';
import { useOutageWatch } from '../data/outage';

/**
 * Shown above every page while the service cannot reach its database: what the user sees may be out of date and
 * changes are refused, and it goes away by itself once the database is back. A status (polite), not an alert: the
 * refusal of what the user did is announced where it happened.
 */
export function OutageBanner() {
  const since = useOutageWatch();
  if (since === null) return null;
  const at = new Date(since).toLocaleTimeString();
  return (
    <Alert role="status" color="yellow" title="The service cannot reach its database" mb="md">
      Since {at}, changes are refused and what you see may be out of date. This page checks every few seconds and
      carries on by itself once the database is back.
    </Alert>
  );
}
