import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  pid: number;
  /** HTTP port, once listening. */
  port: number;
  stdout(): string;
  stderr(): string;
  /** Exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** The environment of a child service: the test runner's own variables minus the database ones, plus `env`. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'INIT_ADMIN_API_TOKENS', 'TEST_DB_POOL_MAX', 'NODE_OPTIONS']) delete base[key];
  const out: NodeJS.ProcessEnv = { ...base, PORT: '0', LOG_LEVEL: 'info' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * Starts the real service (src/main.ts through tsx) as a child process. `waitForListening: false` returns at once
 * (for tests that kill it during start-up); otherwise resolves when it logs that it listens, or rejects with its
 * output when it exits first.
 */
export function spawnService(env: Record<string, string | undefined>, { waitForListening = true } = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const service: ServiceProcess = {
    child, pid: child.pid!, port: 0, exited,
    stdout: () => out, stderr: () => err,
    kill: (signal = 'SIGTERM') => { if (child.exitCode === null && child.signalCode === null) child.kill(signal); },
  };
  if (!waitForListening) return Promise.resolve(service);
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /"port":(\d+)[^\n]*flagdeck listening/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        service.port = Number(m[1]);
        resolve(service);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`service exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

/** GET `path` on the service; the status, or the error's code when the connection fails. */
export async function probe(service: ServiceProcess, path = '/health', headers: Record<string, string> = {}): Promise<number | string> {
  try {
    const res = await fetch(`http://127.0.0.1:${service.port}${path}`, { headers });
    await res.text();
    return res.status;
  } catch (e) {
    return (e as { cause?: { code?: string } }).cause?.code ?? String(e);
  }
}

/**
 * The services a test file starts, each on a data folder of its own under the system's temporary folder, with `env`
 * under every start's own variables: `cleanup()` (in afterAll) kills what still runs and removes the folders.
 */
export function serviceFleet(prefix: string, env: Record<string, string | undefined> = {}) {
  const folders: string[] = [];
  const running: ServiceProcess[] = [];
  return {
    /** A new data folder (not yet created: the service makes it, as on a first start). */
    newFolder(): string {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      folders.push(dir);
      return path.join(dir, 'data');
    },
    async start(dataDir: string, more: Record<string, string | undefined> = {}, waitForListening = true): Promise<ServiceProcess> {
      const s = await spawnService({ DATA_DIR: dataDir, ...env, ...more }, { waitForListening });
      running.push(s);
      return s;
    },
    /** SIGTERM; the exit code. */
    stop(s: ServiceProcess): Promise<number | string> {
      s.kill('SIGTERM');
      return s.exited;
    },
    async cleanup(): Promise<void> {
      for (const s of running) s.kill('SIGKILL');
      await Promise.all(running.map((s) => s.exited));
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    },
  };
}
