import { mkdirSync, openSync, closeSync, readFileSync, writeFileSync, unlinkSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  /** Connection URL for the PostgreSQL driver. */
  url: string;
  stop(): Promise<void>;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two processes on one PGlite data folder corrupt it: hold a pid lock file for the lifetime of the server. */
function acquireLock(dir: string): () => void {
  const file = path.join(dir, 'flagdeck.lock');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (pid && pid !== process.pid && pidAlive(pid)) {
      throw new Error(`the data folder ${dir} is in use by process ${pid}; stop it or choose another DATA_DIR`);
    }
    unlinkSync(file);
  }
  const fd = openSync(file, 'wx');
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
  return () => {
    try { unlinkSync(file); } catch { /* already gone */ }
  };
}

/**
 * PGlite (PostgreSQL compiled to WASM) in `dataDir/pglite`, served over the PostgreSQL wire protocol on
 * 127.0.0.1 with an ephemeral port, so the production driver, SQL and migrations are used unchanged.
 * `dataDir` undefined keeps the database in memory (tests).
 */
export async function startEmbeddedDatabase(dataDir?: string): Promise<EmbeddedDatabase> {
  let release = () => {};
  let db: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    release = acquireLock(dataDir);
    db = await PGlite.create(dir);
  } else {
    db = await PGlite.create();
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
  await server.start();
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
      release();
    },
  };
}
