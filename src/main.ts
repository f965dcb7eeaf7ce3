import { ConfigError, loadConfig } from './config';
import { startEmbeddedDatabase, StartupError } from './db/embedded';
import type * as TemplateModule from './db/embedded-template';
import type * as CredentialsModule from './domain/access/generated-credentials';
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
  // A new data folder is a copy of the template `npm run build` made for these migrations, when there is one.
  const template = () => (require('./db/embedded-template') as typeof TemplateModule).findTemplate();
  const embedded = config.databaseUrl ? undefined : startEmbeddedDatabase(config.dataDir, { template });
  embedded?.catch(() => {}); // awaited (and reported) by startServer
  const { createLogger } = require('./logger') as typeof LoggerModule;
  const { startServer } = require('./server') as typeof ServerModule;
  const { generatedBanner, unshownNotice, unshownOf } = require('./domain/access/generated-credentials') as typeof CredentialsModule;
  const logger = createLogger(config.logLevel, config.logFormat);
  // Signal handlers go in before anything is announced: a supervisor (or a test) that reads "listening" and sends
  // SIGTERM at once must get the graceful stop, not the default action. While starting there is nothing to finish,
  // so a signal then ends the process at once (a first start is atomic; migrations run in one transaction).
  let running: ServerModule.Running | undefined;
  let signals = 0;
  const stop = async (signal: NodeJS.Signals) => {
    signals += 1;
    if (!running) {
      process.stderr.write(`flagdeck: ${signal} while starting; stopped.\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    if (signals > 1) {
      // A second signal while stopping: cut what is still open now rather than at the deadline.
      running.server.closeAllConnections();
      return;
    }
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing requests in flight');
    try {
      await running.stop();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error while stopping');
      process.exit(1);
    }
  };
  // A closed stdout (EPIPE) must not end the service: the one write that matters, the generated credentials, checks
  // its own outcome below.
  process.stdout.on('error', () => {});
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  running = await startServer(config, logger, embedded);
  logger.info({ port: running.port, database: config.databaseUrl ? 'postgresql' : 'embedded', startupMs: Date.now() - started }, `flagdeck listening on http://localhost:${running.port} (GraphiQL at /graphql)`);
  const where = { embedded: !config.databaseUrl, port: running.port };
  if (running.unshown.length > 0) process.stdout.write(unshownNotice(running.unshown, where));
  const banner = generatedBanner(running.generated, running.port);
  if (!banner) return;
  // Generated credentials count as shown only once stdout took them; until then the next start says how to recover.
  const failure = await new Promise<Error | null | undefined>((resolve) => process.stdout.write(banner, resolve));
  if (failure) {
    process.stderr.write(`flagdeck: the generated admin credentials could not be written to stdout (${(failure as NodeJS.ErrnoException).code ?? failure.message}), so they were never shown.\n${unshownNotice(unshownOf(running.generated), where)}`);
    return;
  }
  await running.markShown().catch((err: unknown) => logger.warn({ err }, 'could not record that the generated admin credentials were shown; the next start will say they were not'));
}

main().catch((err) => {
  if (err instanceof StartupError) {
    process.stderr.write(`flagdeck cannot start: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`flagdeck failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
