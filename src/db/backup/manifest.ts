import { z } from 'zod';

/** The first entry of every backup: what it holds, and what restoring it needs. */
export const MANIFEST_NAME = 'flagdeck-backup.json';
const FORMAT = 'flagdeck-backup';
export const FORMAT_VERSION = 1;

/** What is wrong with a file given as a backup, in words a restore can print as they are. */
export type BackupProblem = 'not-a-backup' | 'damaged' | 'incomplete' | 'too-new';

export class BackupFileError extends Error {
  override name = 'BackupFileError';
  constructor(readonly problem: BackupProblem, readonly reason: string) {
    super(reason);
  }
}

/**
 * A path inside the archive: under `pglite/`, made of plain names (no `.` or `..`, no separators of another system),
 * so that a crafted file cannot make a restore write outside the folder it restores into.
 */
const archivePath = z.string().max(100).regex(/^pglite(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/);

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int(),
  flagdeckVersion: z.string(),
  createdAt: z.string().datetime(),
  /** PostgreSQL's major version (the data folder's PG_VERSION): a folder opens only with that major version. */
  postgresMajor: z.string().regex(/^\d+$/),
  pglite: z.string(),
  /** The migrations applied to the database when it was backed up, in order. */
  migrations: z.array(z.string().max(200)).max(10_000),
  directories: z.array(archivePath).max(100_000),
  files: z.array(z.object({ path: archivePath, size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).max(1_000_000),
});

export type BackupManifest = z.infer<typeof manifestSchema> & { format: typeof FORMAT };

export function newManifest(fields: Omit<BackupManifest, 'format' | 'formatVersion'>): BackupManifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, ...fields };
}

export function parseManifest(text: string): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupFileError('not-a-backup', `its ${MANIFEST_NAME} is not JSON`);
  }
  if ((json as { format?: unknown })?.format !== FORMAT) throw new BackupFileError('not-a-backup', `its ${MANIFEST_NAME} is not a flagdeck backup's`);
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BackupFileError('damaged', `its manifest is not valid (${issue.path.join('.')}: ${issue.message})`);
  }
  if (parsed.data.formatVersion > FORMAT_VERSION) {
    throw new BackupFileError('too-new', `it was written in backup format ${parsed.data.formatVersion} by flagdeck ${parsed.data.flagdeckVersion}; this version reads format ${FORMAT_VERSION}`);
  }
  return parsed.data as BackupManifest;
}

const PROBLEMS: Record<BackupProblem, string> = {
  'not-a-backup': 'is not a flagdeck backup',
  damaged: 'is damaged',
  incomplete: 'is incomplete',
  'too-new': 'comes from a newer flagdeck',
};

/** "<file> is damaged: <reason>", as the backup and restore commands print it. */
export function describeBackupProblem(file: string, err: BackupFileError): string {
  return `${file} ${PROBLEMS[err.problem]}: ${err.reason}`;
}
