import type { Readable } from 'node:stream';
import type { AccessService } from '../access/access.service';
import { ADMIN } from '../access/permissions';
import { ConflictError } from '../errors';

/** What a backup's manifest says that the service reads (the whole manifest is src/db/backup/manifest.ts's). */
export interface BackupManifestSummary {
  createdAt: string;
  files: ReadonlyArray<{ path: string; size: number }>;
}

/** A backup being taken: its manifest (known before the first byte) and its bytes, produced as they are read. */
export interface Backup {
  manifest: BackupManifestSummary;
  /** How long the database was held for the copy (requests waited that long at most). */
  heldMs: number;
  bytes: Readable;
}

/** Takes backups of the database this instance runs on: only the embedded one has such a source (src/db/backup/take.ts). */
export interface BackupSource {
  take(): Promise<Backup>;
}

/**
 * The whole database (every user's password hash, every token) leaves the service in a backup: only a root ADMIN may
 * take one. On PostgreSQL the database's own tools do it better (and any number of instances share it), so the
 * answer says which.
 */
export class BackupService {
  constructor(private readonly access: AccessService, private readonly source: BackupSource | undefined) {}

  async take(): Promise<Backup> {
    await this.access.check(ADMIN);
    if (!this.source) {
      throw new ConflictError('This flagdeck stores its data in PostgreSQL (DATABASE_URL), not in the embedded database: back it up with pg_dump, which takes a consistent copy while the service runs (see "Backups and restores" in the README).');
    }
    return this.source.take();
  }
}
