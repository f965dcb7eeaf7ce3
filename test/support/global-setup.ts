import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type * as EmbeddedModule from '../../src/db/embedded';
import type * as DocumentModule from '../../src/rest/openapi/document';

/**
 * Runs once, outside the jest VM (PGlite's dynamic imports fail inside it).
 * - DATABASE_URL set: a fresh database is created on that server for this run and dropped afterwards,
 *   so the suite never touches the data of the database it was pointed at.
 * - unset: an in-memory PGlite served over the PostgreSQL protocol.
 */
export default async function globalSetup(): Promise<void> {
  // Passwords hashed at a lower scrypt cost in the suites (src/domain/access/password.ts): services started in child
  // processes inherit it with NODE_ENV=test.
  process.env.FLAGDECK_TEST_PASSWORD_LOG_N ??= '10';
  // The OpenAPI document every REST answer is checked against (test/support/openapi-check.ts), built once for the run
  // rather than once per test file.
  const { buildOpenApiDocument } = require('../../src/rest/openapi/document') as typeof DocumentModule;
  const documentFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flagdeck-openapi-')), 'openapi.json');
  writeFileSync(documentFile, JSON.stringify(buildOpenApiDocument('test')));
  process.env.FLAGDECK_TEST_OPENAPI = documentFile;
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `flagdeck_test_${process.pid}_${Date.now()}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    process.env.FLAGDECK_TEST_ADMIN_URL = base;
    process.env.FLAGDECK_TEST_DB = name;
    process.env.DATABASE_URL = url.toString();
    process.env.TEST_DB_POOL_MAX = '5';
    return;
  }
  const { startEmbeddedDatabase } = require('../../src/db/embedded') as typeof EmbeddedModule;
  const db = await startEmbeddedDatabase();
  (globalThis as Record<string, unknown>).__FLAGDECK_DB__ = db;
  process.env.DATABASE_URL = db.url;
  process.env.TEST_DB_POOL_MAX = '1';
}
