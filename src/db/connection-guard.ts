import { Client } from 'pg';
import { markDatabaseSocketError } from '../domain/database-errors';

/** How long a statement may go without a byte of answer before the server is probed (DATABASE_STALL_TIMEOUT_MS). */
export const DEFAULT_STALL_TIMEOUT_MS = 5_000;

/** How long a probe of the server may take (a fresh connection and `select 1`). */
const PROBE_MS = 3_000;

/** The parts of a node-postgres client the guard reads: its socket, and whether a statement is under way. */
interface PgClientParts {
  connection?: { stream?: { setTimeout(ms: number, listener?: () => void): void; destroy(err?: Error): void; on(event: 'error', listener: (err: Error) => void): void } };
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
}

/** Whether the server at `url` answers `select 1` on a new connection within `ms`. */
export async function serverAnswers(url: string, ms = PROBE_MS): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: ms, query_timeout: ms, application_name: 'flagdeck-probe' });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    void client.end().catch(() => {});
  }
}

/**
 * The pool's `afterCreate`: each connection's socket errors are marked as the database's (a `read ECONNRESET` of a
 * server that went down names no address, yet must be the outage's 503, not a 500: isDatabaseUnreachable).
 *
 * With `stallMs` (a PostgreSQL server over the network): when a statement has had no byte of answer for that long,
 * the server is asked on a new connection whether it is there. A server that answers is only slow (a long migration
 * or report), and the statement goes on waiting; one that does not is taken as gone (a cut network drops packets
 * instead of refusing them, and the kernel would retry for many minutes): the connection is given up, its statement
 * fails as a lost connection (a 503) and the pool drops it. Stalled connections share one probe at a time.
 */
export function connectionGuard(url: string, stallMs: number | undefined, probe: (url: string) => Promise<boolean> = serverAnswers) {
  let asking: Promise<boolean> | undefined;
  const ask = () => (asking ??= probe(url).finally(() => { asking = undefined; }));
  return (conn: PgClientParts, done: (err: Error | null, conn: unknown) => void) => {
    const socket = conn.connection?.stream;
    // Registered after node-postgres's own listener, so it runs in the same emit, before the statement's rejection is handled.
    socket?.on('error', markDatabaseSocketError);
    if (!stallMs) {
      done(null, conn);
      return;
    }
    const ms = stallMs;
    const busy = () => Boolean(conn._activeQuery) || (conn._queryQueue?.length ?? 0) > 0;
    const onIdle = () => {
      if (!busy()) return;
      void ask().then((answers) => {
        if (!busy()) return;
        if (answers) socket!.setTimeout(ms, onIdle);
        else socket!.destroy(new Error(`Connection terminated: the database sent nothing for ${ms} ms and does not answer`));
      });
    };
    socket?.setTimeout(ms, onIdle);
    done(null, conn);
  };
}
