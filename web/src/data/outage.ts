import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { databaseReady, outageOver, useOutageSince } from '../api/outage';

/** How often the banner asks whether the database is back. */
const CHECK_EVERY_MS = 5000;

/**
 * While the database is out of reach: asks the service every few seconds whether it is back, and once it is, ends the
 * outage and reads every query again (what failed meanwhile, and what may have changed). Since when, or null.
 */
export function useOutageWatch(): number | null {
  const since = useOutageSince();
  const client = useQueryClient();
  useEffect(() => {
    if (since === null) return undefined;
    const timer = setInterval(() => {
      void databaseReady().then((ready) => {
        if (!ready) return;
        outageOver();
        void client.invalidateQueries();
      });
    }, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [since, client]);
  return since;
}
