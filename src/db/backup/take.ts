import { webcrypto } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Backup, BackupSource } from '../../domain/backup/backup.service';
import { SERVICE_VERSION } from '../../version';
import type { EmbeddedDatabase } from '../embedded';
import { pgliteVersion } from '../embedded-template';
import { writeArchive } from './archive';
import { newManifest } from './manifest';

interface PgConnection { query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }> }
interface KnexClient { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> }

/**
 * Backups of the embedded database. The pool's one connection is taken first, in turn with the requests (they wait
 * behind it as behind any transaction, and none is open meanwhile); the migrations applied are read on it and the
 * files are copied at once (src/db/embedded-snapshot.ts); then the connection goes back, and the copy is hashed off
 * the event loop and compressed while it is sent.
 */
export function embeddedBackups(orm: MikroORM, embedded: EmbeddedDatabase): BackupSource {
  return {
    async take(): Promise<Backup> {
      const client = (orm.em.getConnection().getKnex() as unknown as { client: KnexClient }).client;
      const connection = await client.acquireConnection();
      let migrations: string[];
      let snapshot: ReturnType<EmbeddedDatabase['snapshot']>;
      const createdAt = new Date().toISOString();
      try {
        const { rows } = await connection.query('select name from mikro_orm_migrations order by id');
        migrations = rows.map((row) => String(row.name));
        snapshot = embedded.snapshot();
      } finally {
        await client.releaseConnection(connection);
      }
      if (!snapshot) throw new Error('the embedded database was in the middle of an exchange while this request held its only connection');
      const files = await Promise.all(snapshot.files.map(async (file) => ({
        path: file.path,
        size: file.bytes.length,
        sha256: Buffer.from(await webcrypto.subtle.digest('SHA-256', file.bytes)).toString('hex'),
      })));
      const manifest = newManifest({
        flagdeckVersion: SERVICE_VERSION, createdAt, postgresMajor: snapshot.postgresMajor, pglite: pgliteVersion(),
        migrations, directories: snapshot.directories, files,
      });
      return { manifest, bytes: writeArchive(manifest, snapshot.files) };
    },
  };
}
