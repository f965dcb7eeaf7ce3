import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from './app';
import type { Config } from './config';
import { ensureAdminTokens } from './domain/access/api-token.service';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './db/embedded';
import { openOrm } from './db/orm';
import type { Logger } from './logger';

export interface Running {
  server: Server;
  orm: MikroORM;
  port: number;
  /** The admin token created because none existed, shown once. */
  createdAdminToken: string | null;
  stop(): Promise<void>;
}

/** config → database (embedded when no DATABASE_URL) → migrations → admin tokens → HTTP server. */
export async function startServer(config: Config, logger: Logger, embeddedStarting?: Promise<EmbeddedDatabase>): Promise<Running> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await (embeddedStarting ?? startEmbeddedDatabase(config.dataDir));
    url = embedded.url;
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  let orm: MikroORM;
  try {
    orm = await openOrm({ url, poolMax: embedded ? 1 : config.dbPoolMax });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const { created } = await ensureAdminTokens(orm.em, config.initAdminApiTokens);
  const app = buildApp({ orm, logger, playgroundCombinationLimit: config.playgroundCombinationLimit });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server, orm, port, createdAdminToken: created,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await orm.close(true);
      await embedded?.stop();
    },
  };
}
