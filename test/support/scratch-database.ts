import { Client } from 'pg';

/**
 * A database of its own on the suite's PostgreSQL server (FLAGDECK_TEST_ADMIN_URL, set when the suite runs against
 * one), for tests that need an empty or old-schema database: its URL, and `drop()` for afterAll.
 */
export async function createScratchDatabase(adminUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const run = async (sql: string) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
