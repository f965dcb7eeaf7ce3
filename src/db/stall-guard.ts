import { Client } from 'pg';

/** How long a statement may go without a byte of answer before the server is probed (DATABASE_STALL_TIMEOUT_MS). */
export const DEFAULT_STALL_TIMEOUT_MS = 5_000;

/** How long a probe of the server may take (a fresh connection and `select 1`). */
const PROBE_MS = 3_000;

/** The parts of a node-postgres client the guard reads: its socket, and whether a statement is under way. */
interface PgClientParts {
  connection?: { stream?: { setTimeout(ms: number, listener?: () => void): void; destroy(err?: Error): void } };
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
 * The pool's `afterCreate` for a PostgreSQL server over the network: when a statement has had no byte of answer for
 * `ms`, the server is asked on a new connection whether it is there. A server that answers is only slow (a long
 * migration or report), and the statement goes on waiting; one that does not is taken as gone (a cut network drops
 * packets instead of refusing them, and the kernel would retry for many minutes): the connection is given up, its
 * statement fails as a lost connection (isDatabaseUnreachable: a 503) and the pool drops it. Stalled connections
 * share one probe at a time.
 */
export function stallGuard(url: string, ms: number, probe: (url: string) => Promise<boolean> = serverAnswers) {
  let asking: Promise<boolean> | undefined;
  const ask = () => (asking ??= probe(url).finally(() => { asking = undefined; }));
  return (conn: PgClientParts, done: (err: Error | null, conn: unknown) => void) => {
    const socket = conn.connection?.stream;
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
