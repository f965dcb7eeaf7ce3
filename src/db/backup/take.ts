import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Backup, BackupSource } from '../../domain/backup/backup.service';
import { ConflictError } from '../../domain/errors';
import { SERVICE_VERSION } from '../../version';
import type { EmbeddedDatabase } from '../embedded';
import { pgliteVersion } from '../embedded-template';
import { writeArchive } from './archive';
import { newManifest, type BackupManifest } from './manifest';

const HASHED_PER_TURN = 20;

interface KnexClient { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> }

/**
 * Backups of the embedded database, taken online (src/db/embedded-snapshot.ts). Its two short exclusive steps take the
 * pool's one connection in turn with the requests (which wait behind them as behind any transaction); the files are
 * copied in between while requests go on. The copy is then hashed, a few files a turn, and compressed while it is sent.
 * One at a time: a second backup asked for meanwhile is refused.
 */
export function embeddedBackups(orm: MikroORM, embedded: EmbeddedDatabase): BackupSource {
  let busy = false;
  return {
    async take(): Promise<Backup> {
      if (busy) throw new ConflictError('A backup is being taken: try again when it has finished.');
      busy = true;
      try {
        const connection = orm.em.getConnection();
        const client = (connection.getKnex() as unknown as { client: KnexClient }).client;
        let heldMs = 0;
        const whileHeld = async <T>(job: () => T): Promise<T> => {
          const held = await client.acquireConnection();
          const t = performance.now();
          try {
            return job();
          } finally {
            heldMs += performance.now() - t;
            await client.releaseConnection(held);
          }
        };
        // Migrations run only at start: read before or after the copy, they are the same.
        const migrations = (await connection.execute<Array<{ name: string }>>('select name from mikro_orm_migrations order by id')).map((row) => row.name);
        const createdAt = new Date().toISOString();
        const snapshot = await embedded.copy(whileHeld);
        // Hashed here a few files a turn: WebCrypto's digest copies every input on the event loop first, which took longer.
        const files: BackupManifest['files'] = [];
        for (const [i, file] of snapshot.files.entries()) {
          if (i % HASHED_PER_TURN === 0) await nextTurn();
          files.push({ path: file.path, size: file.bytes.length, sha256: createHash('sha256').update(file.bytes).digest('hex') });
        }
        const manifest = newManifest({
          flagdeckVersion: SERVICE_VERSION, createdAt, postgresMajor: snapshot.postgresMajor, pglite: pgliteVersion(),
          migrations, directories: snapshot.directories, files,
        });
        return { manifest, heldMs, bytes: writeArchive(manifest, snapshot.files) };
      } finally {
        busy = false;
      }
    },
  };
}
