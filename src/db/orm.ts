import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../domain/entities';
import { recordDatabasePlace } from '../domain/database-errors';
import { migrationsList } from './migrations';

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
}

export function ormConfig({ url, poolMax, holdConnection }: OrmOptions): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: url,
    entities,
    extensions: [Migrator],
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    // The embedded database serves one session: a second connection would wait forever. Fail fast instead.
    pool: holdConnection
      ? { min: 1, max: 1, acquireTimeoutMillis: 10_000, idleTimeoutMillis: 2 ** 31 - 1 }
      : { min: 0, max: poolMax, acquireTimeoutMillis: 10_000 },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true, tableName: 'mikro_orm_migrations' },
    forceUtcTimezone: true,
  };
}

/** Opens the ORM and brings the schema up to date (migrations run at every start). */
export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  recordDatabasePlace(options.url);
  const orm = await MikroORM.init(ormConfig(options));
  if (options.onQuery) {
    const knex = orm.em.getConnection().getKnex();
    knex.on('query', (q: { sql: string }) => options.onQuery!(q.sql));
  }
  await orm.getMigrator().up();
  return orm;
}
