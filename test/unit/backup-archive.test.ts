import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { readArchive, writeArchive, type ArchiveFile, type ArchiveSink } from '../../src/db/backup/archive';
import { BackupFileError, newManifest, type BackupManifest } from '../../src/db/backup/manifest';
import { checkMigrations } from '../../src/db/backup/restore';

const files: ArchiveFile[] = [
  { path: 'pglite/PG_VERSION', bytes: Buffer.from('17\n') },
  { path: 'pglite/base/1/1259', bytes: Buffer.alloc(8192 * 3, 7) },
  { path: 'pglite/global/pg_control', bytes: Buffer.from(Array.from({ length: 700 }, (_, i) => i % 251)) },
  { path: 'pglite/pg_logical/empty', bytes: Buffer.alloc(0) },
];

function manifestOf(list: ArchiveFile[], extra: Partial<BackupManifest> = {}): BackupManifest {
  return newManifest({
    flagdeckVersion: '0.1.0', createdAt: '2026-11-26T20:00:00.000Z', postgresMajor: '17', pglite: '0.3.16',
    migrations: ['0001-init', '0002-feature-model-indexes'], directories: ['pglite/base', 'pglite/base/1', 'pglite/global', 'pglite/pg_logical', 'pglite/pg_stat_tmp'],
    files: list.map((f) => ({ path: f.path, size: f.bytes.length, sha256: createHash('sha256').update(f.bytes).digest('hex') })),
    ...extra,
  });
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Feeds `bytes` in small pieces, so that headers and contents straddle chunk boundaries. */
function pieces(bytes: Buffer, size = 333): AsyncIterable<Buffer> {
  return (async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  })();
}

function collector(): ArchiveSink & { dirs: string[]; got: Map<string, Buffer> } {
  const dirs: string[] = [];
  const got = new Map<string, Buffer>();
  return {
    dirs, got,
    directory: (d) => { dirs.push(d); },
    file(p) {
      const parts: Buffer[] = [];
      return { write: (c) => { parts.push(Buffer.from(c)); }, end: () => { got.set(p, Buffer.concat(parts)); } };
    },
  };
}

async function problemOf(bytes: Buffer, check?: (m: BackupManifest) => void): Promise<BackupFileError> {
  const err = await readArchive(pieces(bytes), undefined, check).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(BackupFileError);
  return err as BackupFileError;
}

/** Rewrites the tar inside a backup (`edit` gets the uncompressed bytes) and compresses it again. */
function retar(backup: Buffer, edit: (tar: Buffer) => Buffer): Buffer {
  return gzipSync(edit(Buffer.from(gunzipSync(backup))));
}

describe('backup archive', () => {
  it('reads back what was written: the manifest, every folder and every file, byte for byte', async () => {
    const manifest = manifestOf(files);
    const backup = await bytesOf(writeArchive(manifest, files));
    const sink = collector();
    expect(await readArchive(pieces(backup), sink)).toEqual(manifest);
    expect(sink.dirs).toEqual(manifest.directories);
    expect([...sink.got.keys()]).toEqual(files.map((f) => f.path));
    for (const f of files) expect(sink.got.get(f.path)!.equals(Buffer.from(f.bytes))).toBe(true);
  });

  it('is a standard gzip\'d tar whose first entry is the manifest', async () => {
    const tar = gunzipSync(await bytesOf(writeArchive(manifestOf(files), files)));
    expect(tar.toString('utf8', 0, 20)).toBe('flagdeck-backup.json');
    expect(tar.toString('latin1', 257, 262)).toBe('ustar');
  });

  it('says a file that is not gzip, or a gzip without the manifest, is not a flagdeck backup', async () => {
    expect((await problemOf(Buffer.from('{"version":1}'))).problem).toBe('not-a-backup');
    expect((await problemOf(Buffer.alloc(0))).problem).toBe('not-a-backup');
    expect((await problemOf(gzipSync(Buffer.from('hello world')))).problem).toBe('not-a-backup');
    expect((await problemOf(gzipSync(Buffer.alloc(4096, 'a')))).problem).toBe('not-a-backup');
    const other = retar(await bytesOf(writeArchive(manifestOf(files), files)), (tar) => {
      tar.write('something-else.json\0', 0, 'utf8');
      return tar;
    });
    expect((await problemOf(other)).problem).toBe('not-a-backup'); // its first header is no tar header any more
  });

  it('says a file cut short is incomplete, wherever it is cut', async () => {
    const backup = await bytesOf(writeArchive(manifestOf(files), files));
    for (const length of [10, 200, Math.floor(backup.length / 2), backup.length - 9, backup.length - 1]) {
      expect((await problemOf(backup.subarray(0, length))).problem).toBe('incomplete');
    }
  });

  it('says a file whose content changed is damaged, naming the file when its checksum is what failed', async () => {
    const manifest = manifestOf(files);
    const backup = await bytesOf(writeArchive(manifest, files));
    const flipped = retar(backup, (tar) => {
      const at = tar.indexOf(Buffer.alloc(64, 7));
      tar[at + 10] ^= 0xff;
      return tar;
    });
    const err = await problemOf(flipped);
    expect(err.problem).toBe('damaged');
    expect(err.reason).toContain('pglite/base/1/1259');
    const corrupt = Buffer.from(backup);
    corrupt[Math.floor(corrupt.length / 2)] ^= 0xff;
    expect(['damaged', 'incomplete']).toContain((await problemOf(corrupt)).problem);
  });

  it('refuses an entry the manifest does not list, and a manifest that lists more than the archive holds', async () => {
    const manifest = manifestOf(files);
    const withExtra = await bytesOf(writeArchive(manifest, [...files, { path: 'pglite/extra', bytes: Buffer.from('x') }]));
    expect((await problemOf(withExtra)).problem).toBe('damaged');
    const missing = await bytesOf(writeArchive(manifest, files.slice(0, 2)));
    expect((await problemOf(missing)).problem).toBe('incomplete');
  });

  it('refuses a manifest whose paths would leave the folder restored into', async () => {
    for (const bad of ['pglite/../etc/passwd', '/etc/passwd', 'pglite/./x', 'other/x', 'pglite/a\\b']) {
      const list = [{ path: bad, bytes: Buffer.from('x') }];
      const err = await problemOf(await bytesOf(writeArchive(manifestOf(list), list)));
      expect(err.problem).toBe('damaged');
      expect(err.reason).toMatch(/manifest is not valid/);
    }
  });

  it('refuses a backup from a newer flagdeck: a newer format, or migrations this version does not know', async () => {
    const newer = await bytesOf(writeArchive({ ...manifestOf(files), formatVersion: 2 }, files));
    expect((await problemOf(newer)).problem).toBe('too-new');
    const future = await bytesOf(writeArchive(manifestOf(files, { migrations: ['0001-init', '0099-from-the-future'] }), files));
    const err = await problemOf(future, (m) => checkMigrations(m, ['0001-init', '0002-feature-model-indexes']));
    expect(err.problem).toBe('too-new');
    expect(err.reason).toContain('0099-from-the-future');
    await expect(readArchive(pieces(await bytesOf(writeArchive(manifestOf(files), files))), undefined, (m) => checkMigrations(m, ['0001-init', '0002-feature-model-indexes', '0003-later']))).resolves.toBeDefined();
  });
});
