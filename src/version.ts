import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The service's version, from its package.json: found by walking up from this file, so it is the same whether the
 * sources run through tsx (src/) or compiled (dist/src/).
 */
function readVersion(): string {
  for (let dir = __dirname, i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flagdeck' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: one folder up
    }
  }
  return '0.0.0';
}

export const SERVICE_VERSION = readVersion();
