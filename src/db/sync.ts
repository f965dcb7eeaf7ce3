import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';

// Flushing to disk before a rename makes a folder or file either absent or whole after a crash (first starts, the
// template build, restores and saved backups all rely on it).

/** fsync every file under `dir` and the directories themselves (iterative: the tree is PGlite's, not the user's). */
export function syncTree(dir: string): void {
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) syncPath(full);
    }
    syncPath(current);
  }
}

export function syncPath(p: string): void {
  const fd = openSync(p, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}
