/**
 * Runs SQL statements in a stopped service's embedded database (its DATA_DIR), in a child process (PGlite does not load
 * inside jest's module sandbox): test/support/embedded-sql-client.ts sends the statements as JSON on standard input,
 * `[[sql, params], …]`, and reads the rows of each back as one JSON line. For tests that put data in the past, which
 * no API writes.
 */
import { Client } from 'pg';
import { startEmbeddedDatabase } from '../../src/db/embedded';

async function main(): Promise<unknown[][]> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: embedded-sql.ts <DATA_DIR> < statements.json');
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const statements = JSON.parse(input) as Array<[string, unknown[]?]>;
  const db = await startEmbeddedDatabase(dataDir);
  const client = new Client({ connectionString: db.url });
  try {
    await client.connect();
    const results: unknown[][] = [];
    for (const [sql, params = []] of statements) results.push((await client.query(sql, params)).rows);
    return results;
  } finally {
    await client.end().catch(() => undefined);
    await db.stop();
  }
}

main().then(
  (results) => { process.stdout.write(`${JSON.stringify(results)}\n`); },
  (err: unknown) => { process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`); process.exit(1); },
);
