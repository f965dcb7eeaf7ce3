import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../domain/entities';
import { markDatabaseSocketError, recordDatabasePlace } from '../domain/database-errors';
import { migrationsList } from './migrations';
import { connectionGuard, DEFAULT_STALL_TIMEOUT_MS } from './connection-guard';

export interface OrmOptions {
  url: string;
  poolMax: number;
  /**
   * The embedded database: keep exactly one connection open for the life of the process (never reaped when idle),
   * so no other process can take the socket's only connection (issue 8, defect 1).
   */
  holdConnection?: boolean;
  /** Called with each SQL statement (tests count queries with it). */
  onQuery?: (sql: string) => void;
  /**
   * A PostgreSQL server over the network: how long a statement may go without a byte of answer before the server is
   * asked whether it is there, and the connection given up if not (DATABASE_STALL_TIMEOUT_MS; src/db/connection-guard.ts).
   */
  stallTimeoutMs?: number;
}

/** How long opening a connection to a PostgreSQL server may take. */
export const CONNECT_TIMEOUT_MS = 5_000;

export function ormConfig({ url, poolMax, holdConnection, stallTimeoutMs = DEFAULT_STALL_TIMEOUT_MS }: OrmOptions): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities,
    extensions: [Migrator],
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    // The embedded database serves one session: a second connection would wait forever. Fail fast instead.
    pool: holdConnection
      ? { min: 1, max: 1, acquireTimeoutMillis: 10_000, idleTimeoutMillis: 2 ** 31 - 1, afterCreate: connectionGuard(url, undefined) }
      : { min: 0, max: poolMax, acquireTimeoutMillis: 10_000, afterCreate: connectionGuard(url, overNetwork(url) ? stallTimeoutMs : undefined) },
    driverOptions: {
      // knex prints a lost connection to the console; the app logs the outage once instead (src/domain/database-availability.ts).
      log: { warn: (message: string) => { if (!String(message).startsWith('Connection Error')) console.warn(message); } },
      // On a server, connections not made in time are an outage's 503, and keep-alive finds a peer gone quiet while idle.
      ...(holdConnection ? {} : { connection: { connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true } }),
    },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true, tableName: 'mikro_orm_migrations' },
    forceUtcTimezone: true,
  };
}

/** Whether the database is reached over TCP (a network can be cut), not a unix socket (the embedded database's). */
const overNetwork = (url: string) => !decodeURIComponent(new URL(url).hostname).startsWith('/');

/**
 * Errors of opening a pool connection are the database's: a server going down resets a connection being opened with
 * a `read ECONNRESET` that names no address (the connection guard marks those of open connections).
 */
function markConnectErrors(orm: MikroORM): void {
  const client = orm.em.getConnection().getKnex().client as { acquireRawConnection(): Promise<unknown> };
  const acquire = client.acquireRawConnection.bind(client);
  client.acquireRawConnection = () => acquire().catch((err: unknown) => {
    markDatabaseSocketError(err);
    throw err;
  });
}

/** Opens the ORM and brings the schema up to date (migrations run at every start). */
export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  recordDatabasePlace(options.url);
  const orm = await MikroORM.init(ormConfig(options));
  markConnectErrors(orm);
  if (options.onQuery) {
    const knex = orm.em.getConnection().getKnex();
    knex.on('query', (q: { sql: string }) => options.onQuery!(q.sql));
  }
  await orm.getMigrator().up();
  return orm;
}
