/** What `npm start` runs, for the benches that start the service as it does: `node <options> scripts/start.js`. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** The arguments after `node` of package.json's start script (its node options and the launcher). */
export function startArguments(): string[] {
  const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'scripts/start.js') throw new Error(`unexpected start script: ${script}`);
  return [...words.slice(1, -1), path.join(ROOT, 'scripts/start.js')];
}

/**
 * The service started as `npm start` starts it (its node options, not the bench's tsx loader), with `env` over the
 * bench's environment and warnings-only logs; `execArgv` adds node options. Its IPC channel is open for probes.
 */
export function forkAsNpmStart(env: NodeJS.ProcessEnv, { execArgv = [], stdout = false }: { execArgv?: string[]; stdout?: boolean } = {}): ChildProcess {
  const [script, ...options] = startArguments().reverse();
  return fork(script!, [], {
    cwd: ROOT, stdio: ['ignore', stdout ? 'inherit' : 'ignore', 'inherit', 'ipc'], execArgv: [...options.reverse(), ...execArgv],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
}

/** Waits until the service at `base` answers an authenticated request; throws if `child` exits first. */
export async function untilServing(base: string, token: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try { if ((await fetch(`${base}/api/admin/tags`, { headers: { authorization: token } })).status === 200) return; } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** SIGTERM, and its exit. */
export function stopService(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => { if (child.exitCode !== null) resolve(); else { child.once('exit', () => resolve()); child.kill('SIGTERM'); } });
}
