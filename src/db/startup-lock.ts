import { Client } from 'pg';

/** pg_advisory_lock key of the start-up work (migrations and the first admin token): "flagdeck" folded to 32 bits. */
export const STARTUP_LOCK_KEY = 0x666c6467;

/**
 * Runs `work` while holding a PostgreSQL session advisory lock on a connection of its own (issue 8, defect 9): any
 * number of instances may start together on one database; they migrate one after the other, and each later one finds
 * the schema current. The lock belongs to the session, so a process killed while holding it releases it with its
 * connection. Not used on the embedded database, which only this process can reach.
 */
export async function withStartupLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  // The service's first contact with the server: an address that never answers fails after 10 s instead of hanging.
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await client.end().catch(() => {}); // ending the session releases the lock
  }
}
