import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { startEmbeddedDatabase, StartupError, type EmbeddedDatabase } from './embedded';
import { findTemplate } from './embedded-template';
import { openOrm } from './orm';
import { withStartupLock } from './startup-lock';

/** The configured database, opened and migrated: what the service and the command-line tools work on. */
export interface OpenDatabase {
  orm: MikroORM;
  /** The embedded database, when no DATABASE_URL is configured. */
  embedded?: EmbeddedDatabase;
  url: string;
  /**
   * Runs `work` while no other instance runs start-up work on this database: under the start-up lock on PostgreSQL;
   * on the embedded database this process is the only one.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Why the server at `url` could not be used, in words, for the errors of reaching it and logging in. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is PostgreSQL running there?)',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  '28P01': 'the password was refused',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist',
};

/**
 * A StartupError naming the server (host, port, database and user; never the password) when `err` is a failure to
 * reach or log in to it; undefined for anything else.
 */
export function unreachableDatabase(url: string, err: unknown): StartupError | undefined {
  const e = err as { code?: string; message?: string };
  const reason = (e?.code && UNREACHABLE[e.code]) ?? (/timeout expired|Connection terminated due to connection timeout/i.test(e?.message ?? '') ? 'the connection timed out' : undefined);
  if (!reason) return undefined;
  let where = 'the configured server';
  try {
    const u = new URL(url);
    where = `${u.hostname || 'localhost'}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1))}${u.username ? ` as user ${decodeURIComponent(u.username)}` : ''}`;
  } catch {
    // An unreadable URL is refused by the configuration check before this point.
  }
  return new StartupError(`cannot use PostgreSQL at ${where}: ${reason}. Check DATABASE_URL.`);
}

/**
 * DATABASE_URL's server, or the embedded database in the data folder (`embeddedStarting` when the caller already
 * started it), with migrations run. `afterMigrations` runs next, in the same turn under the start-up lock on
 * PostgreSQL. On any failure whatever was opened is closed again.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolMax'> & Partial<Pick<Config, 'databaseStallTimeoutMs'>>,
  { embeddedStarting, afterMigrations }: { embeddedStarting?: Promise<EmbeddedDatabase>; afterMigrations?: (orm: MikroORM) => Promise<void> } = {},
): Promise<OpenDatabase> {
  const embedded = config.databaseUrl ? undefined : await (embeddedStarting ?? startEmbeddedDatabase(config.dataDir, { template: findTemplate }));
  const url = config.databaseUrl ?? embedded!.url;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => (embedded ? work() : withStartupLock(url, work));
  let orm: MikroORM | undefined;
  try {
    await exclusive(async () => {
      orm = await openOrm({ url, poolMax: embedded ? 1 : config.dbPoolMax, holdConnection: embedded !== undefined, stallTimeoutMs: config.databaseStallTimeoutMs });
      await afterMigrations?.(orm);
    });
  } catch (err) {
    await orm?.close(true);
    await embedded?.stop();
    throw (embedded ? undefined : unreachableDatabase(url, err)) ?? err;
  }
  const opened = orm!;
  return {
    orm: opened, embedded, url, exclusive,
    async close() {
      await opened.close(true);
      await embedded?.stop();
    },
  };
}
