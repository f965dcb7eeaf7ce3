import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { ServicePackage } from './domain/ui-config/ui-config.service';

/**
 * The service's name, version and description, from its package.json: found by walking up from this file, so they are
 * the same whether the sources run through tsx (src/) or compiled (dist/src/).
 */
function readPackage(): ServicePackage {
  for (let dir = __dirname, i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Partial<ServicePackage>;
      if (pkg.name === 'flagdeck' && typeof pkg.version === 'string') return { name: pkg.name, version: pkg.version, description: pkg.description ?? '' };
    } catch {
      // not here: one folder up
    }
  }
  return { name: 'flagdeck', version: '0.0.0', description: '' };
}

export const SERVICE_PACKAGE: ServicePackage = readPackage();
export const SERVICE_VERSION = SERVICE_PACKAGE.version;
