import { rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { EmbeddedDatabase } from '../../src/db/embedded';

export default async function globalTeardown(): Promise<void> {
  const documentFile = process.env.FLAGDECK_TEST_OPENAPI;
  if (documentFile) rmSync(path.dirname(documentFile), { recursive: true, force: true });
  const embedded = (globalThis as Record<string, unknown>).__FLAGDECK_DB__ as EmbeddedDatabase | undefined;
  if (embedded) {
    await embedded.stop();
    return;
  }
  const adminUrl = process.env.FLAGDECK_TEST_ADMIN_URL;
  const name = process.env.FLAGDECK_TEST_DB;
  if (adminUrl && name) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
