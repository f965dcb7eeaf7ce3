import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { BackupFileError, MANIFEST_NAME, parseManifest, type BackupManifest } from './manifest';

/**
 * A backup is a gzip'd tar (POSIX ustar), so that standard tools can list and unpack it: its first entry is the
 * manifest (flagdeck-backup.json: what the backup holds, with each file's size and SHA-256), then the folders, then
 * the files, in the manifest's order. Written and read here, in a few lines, rather than through a dependency.
 */

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK * 2);

export interface ArchiveFile {
  /** Path inside the archive (relative, `/`-separated). */
  path: string;
  bytes: Uint8Array;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0');
}

/** A ustar header for a file (`'0'`) or a folder (`'5'`). */
function header(name: string, size: number, type: '0' | '5', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length > 100) throw new Error(`archive path longer than 100 bytes: ${name}`);
  bytes.copy(block, 0);
  block.write(octal(type === '5' ? 0o700 : 0o600, 8), 100, 'latin1');
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(size, 12), 124, 'latin1');
  block.write(octal(mtime, 12), 136, 'latin1');
  block.fill(0x20, 148, 156); // the checksum is summed with its own field as spaces
  block.write(type, 156, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${octal(sum, 7)}\u0000`, 148, 'latin1');
  return block;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? Buffer.alloc(0) : ZEROS.subarray(0, BLOCK - rest);
}

function* tarEntries(manifest: BackupManifest, directories: readonly string[], files: readonly ArchiveFile[]): Generator<Buffer> {
  const mtime = Math.floor(Date.parse(manifest.createdAt) / 1000);
  const text = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, 'utf8');
  yield header(MANIFEST_NAME, text.length, '0', mtime);
  yield text;
  yield padding(text.length);
  for (const dir of directories) yield header(`${dir}/`, 0, '5', mtime);
  for (const file of files) {
    yield header(file.path, file.bytes.length, '0', mtime);
    yield Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    yield padding(file.bytes.length);
  }
  yield ZEROS;
}

/** The backup's bytes, compressed as they are read (the compression runs on libuv's threads, not the event loop). */
export function writeArchive(manifest: BackupManifest, files: readonly ArchiveFile[]): Readable {
  // Level 1: the files are mostly empty pages, which any level compresses; higher levels cost CPU for little.
  return Readable.from(tarEntries(manifest, manifest.directories, files), { objectMode: false }).pipe(createGzip({ level: 1 }));
}

/** What reading an archive does with its content; nothing is written when it is only checked. */
export interface ArchiveSink {
  directory(path: string): void;
  /** Called once per file, before its bytes; `write` then gets them in order and `end` after the last. */
  file(path: string, size: number): { write(chunk: Buffer): void; end(): void };
}

interface Entry { name: string; size: number; type: string }

function parseHeader(block: Buffer, first: boolean): Entry {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  const stored = parseInt(block.toString('latin1', 148, 156).replace(/\0.*$/s, '').trim(), 8);
  if (stored !== sum) {
    throw first ? new BackupFileError('not-a-backup', 'it holds no tar archive') : new BackupFileError('damaged', 'an entry header does not match its checksum');
  }
  const field = (from: number, length: number) => block.toString('utf8', from, from + length).replace(/\0.*$/s, '');
  const prefix = field(345, 155);
  const name = field(0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size: parseInt(field(124, 12).trim() || '0', 8), type: field(156, 1) || '0' };
}

/**
 * Reads an archive, checking it against its manifest as it goes: the first entry must be the manifest; every other
 * entry must be listed there, in order, with the size and SHA-256 it lists; nothing listed may be missing. `sink`
 * receives the folders and files (checked ones; a file's bytes are handed over before its checksum is known, so a
 * sink must treat its output as unfinished until this resolves). Rejects with a BackupFileError that says what is
 * wrong: not a flagdeck backup, damaged, or incomplete.
 */
export async function readArchive(source: AsyncIterable<Buffer>, sink?: ArchiveSink, check?: (manifest: BackupManifest) => void): Promise<BackupManifest> {
  const gunzip = createGunzip();
  let first = true;
  const input = Readable.from((async function* () {
    for await (const chunk of source) {
      if (first && chunk.length > 0) {
        first = false;
        if (chunk.length < 2 || chunk[0] !== 0x1f || chunk[1] !== 0x8b) throw new BackupFileError('not-a-backup', 'it is not a gzip file');
      }
      yield chunk;
    }
    if (first) throw new BackupFileError('not-a-backup', 'it is empty');
  })());
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);

  let manifest: BackupManifest | undefined;
  const directories = new Set<string>();
  let nextFile = 0;
  let pending: Buffer = Buffer.alloc(0);
  let entry: Entry | undefined;
  let remaining = 0;
  let skip = 0;
  let manifestText: Buffer[] = [];
  let current: { write(chunk: Buffer): void; end(): void } | undefined;
  let hash: Hash | undefined;
  let ended = false;

  const finishEntry = () => {
    const e = entry!;
    if (e.name === MANIFEST_NAME) {
      manifest = parseManifest(Buffer.concat(manifestText).toString('utf8'));
      manifestText = [];
      for (const dir of manifest.directories) directories.add(dir);
      check?.(manifest);
    } else {
      const listed = manifest!.files[nextFile]!;
      const digest = hash!.digest('hex');
      if (digest !== listed.sha256) throw new BackupFileError('damaged', `${listed.path} does not match its checksum`);
      current?.end();
      nextFile++;
    }
    entry = undefined;
    current = undefined;
    hash = undefined;
  };

  const startEntry = (e: Entry) => {
    if (!manifest) {
      if (e.name !== MANIFEST_NAME || e.type !== '0') throw new BackupFileError('not-a-backup', `its first entry is ${JSON.stringify(e.name)}, not ${MANIFEST_NAME}`);
      if (e.size > 64 * 2 ** 20) throw new BackupFileError('not-a-backup', 'its manifest is too large');
    } else if (e.type === '5') {
      const dir = e.name.replace(/\/$/, '');
      if (!directories.has(dir)) throw new BackupFileError('damaged', `it holds a folder its manifest does not list: ${dir}`);
      sink?.directory(dir);
      return;
    } else {
      const listed = manifest.files[nextFile];
      if (e.type !== '0' || !listed || listed.path !== e.name || listed.size !== e.size) {
        throw new BackupFileError('damaged', `it holds ${JSON.stringify(e.name)} where its manifest lists ${listed ? JSON.stringify(listed.path) : 'no more files'}`);
      }
      hash = createHash('sha256');
      current = sink?.file(e.name, e.size);
    }
    entry = e;
    remaining = e.size;
    skip = (BLOCK - (e.size % BLOCK)) % BLOCK;
    if (remaining === 0) finishEntry();
  };

  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let at = 0;
      while (at < pending.length && !ended) {
        if (remaining > 0) {
          const take = Math.min(remaining, pending.length - at);
          const part = pending.subarray(at, at + take);
          if (entry!.name === MANIFEST_NAME) manifestText.push(Buffer.from(part));
          else {
            hash!.update(part);
            current?.write(part);
          }
          at += take;
          remaining -= take;
          if (remaining === 0) finishEntry();
        } else if (skip > 0) {
          const take = Math.min(skip, pending.length - at);
          at += take;
          skip -= take;
        } else {
          if (pending.length - at < BLOCK) break;
          const block = pending.subarray(at, at + BLOCK);
          at += BLOCK;
          if (block.every((b) => b === 0)) {
            ended = true;
            break;
          }
          startEntry(parseHeader(block, !manifest && !entry));
        }
      }
      pending = ended ? Buffer.alloc(0) : Buffer.from(pending.subarray(at));
    }
  } catch (err) {
    gunzip.destroy();
    input.destroy();
    throw asBackupFileError(err);
  }
  if (!manifest) throw entry ? new BackupFileError('incomplete', 'it ends before its manifest') : new BackupFileError('not-a-backup', 'it holds no tar archive');
  if (!ended || nextFile < manifest.files.length) throw new BackupFileError('incomplete', `it ends after ${nextFile} of its ${manifest.files.length} files`);
  return manifest;
}

/** zlib's and the file system's errors, in the words of a backup file. */
function asBackupFileError(err: unknown): unknown {
  if (err instanceof BackupFileError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e?.message ?? '')) return new BackupFileError('incomplete', 'it ends in the middle (was it cut short while it was written or copied?)');
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) return new BackupFileError('damaged', `its compressed data is corrupt (${e.message})`);
  return err;
}
