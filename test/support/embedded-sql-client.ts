import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Runs `statements` ([sql, params] each) in the embedded database of a stopped service's DATA_DIR, through
 * test/support/embedded-sql.ts in a child process; the rows of each statement, in order.
 */
export function runEmbeddedSql(dataDir: string, statements: Array<[string, unknown[]?]>): Promise<unknown[][]> {
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS']) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/embedded-sql.ts'), dataDir], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
  child.stdin.end(JSON.stringify(statements));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as unknown[][]);
      else reject(new Error(`embedded-sql exited ${code}:\n${err}`));
    });
  });
}
