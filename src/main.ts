import { ConfigError, loadConfig } from './config';
import { startEmbeddedDatabase } from './db/embedded';
import type * as LoggerModule from './logger';
import type * as ServerModule from './server';

/** The only file with process side effects. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`flagdeck: invalid configuration: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const started = Date.now();
  // The embedded database (WASM) starts first, so its compilation overlaps with loading the application's modules.
  const embedded = config.databaseUrl ? undefined : startEmbeddedDatabase(config.dataDir);
  embedded?.catch(() => {}); // awaited (and reported) by startServer
  const { createLogger } = require('./logger') as typeof LoggerModule;
  const { startServer } = require('./server') as typeof ServerModule;
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger, embedded);
  logger.info({ port: running.port, database: config.databaseUrl ? 'postgresql' : 'embedded', startupMs: Date.now() - started }, `flagdeck listening on http://localhost:${running.port} (GraphiQL at /graphql)`);
  if (running.createdAdminToken) {
    process.stdout.write(`\nNo admin API token existed, so one was created. It is shown only this once:\n\n    ${running.createdAdminToken}\n\nTry: curl -H "Authorization: ${running.createdAdminToken}" http://localhost:${running.port}/api/admin/tags\n\n`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await running.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`flagdeck failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
