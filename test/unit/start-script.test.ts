import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

/**
 * `npm start` (scripts/start.js) runs the compiled service only when dist/ was built from the sources as they are, and
 * the sources through tsx otherwise; `prepare` (scripts/build.js --if-possible) never fails an install. Checked on a
 * copy of the layout whose two entry points only say which one ran.
 */
const ROOT = path.resolve(__dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'flagdeck-start-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, text: string, at?: Date) => {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  if (at) utimesSync(full, at, at);
};
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

mkdirSync(path.join(dir, 'scripts'));
for (const f of ['start.js', 'build.js']) copyFileSync(path.join(ROOT, 'scripts', f), path.join(dir, 'scripts', f));
for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) write(f, '{}', minutesAgo(10));
write('src/main.ts', "const ran: string = 'sources';\nconsole.log(ran);\n", minutesAgo(10));
write('src/domain/x.ts', 'export const x = 1;\n', minutesAgo(10));
write('dist/src/main.js', "console.log('compiled');\n");

const start = (env: Record<string, string> = {}) => execFileSync(process.execPath, [path.join(dir, 'scripts/start.js')], { cwd: dir, env: { ...process.env, FLAGDECK_RUN_SOURCES: '', ...env }, encoding: 'utf8' }).trim();

describe('npm start', () => {
  it('runs the sources through tsx when there is no build', () => {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    expect(start()).toBe('sources');
  });

  it('runs dist/ when its stamp is at least as new as every source and configuration file', () => {
    write('dist/.build-stamp', 'x', minutesAgo(5));
    expect(start()).toBe('compiled');
  });

  it('runs the sources again once any of them (or the configuration) is newer than the build, or when asked to', () => {
    expect(start({ FLAGDECK_RUN_SOURCES: '1' })).toBe('sources');
    utimesSync(path.join(dir, 'src/domain/x.ts'), new Date(), new Date());
    expect(start()).toBe('sources');
    write('dist/.build-stamp', 'x', new Date(Date.now() + 1000));
    expect(start()).toBe('compiled');
    utimesSync(path.join(dir, 'tsconfig.build.json'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect(start()).toBe('sources');
  });
});

describe('prepare', () => {
  it('succeeds without a TypeScript compiler (npm ci --omit=dev), saying npm start will run the sources', () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'flagdeck-no-tsc-'));
    try {
      mkdirSync(path.join(bare, 'scripts'));
      copyFileSync(path.join(ROOT, 'scripts/build.js'), path.join(bare, 'scripts/build.js'));
      const out = execFileSync(process.execPath, [path.join(bare, 'scripts/build.js'), '--if-possible'], { cwd: bare, encoding: 'utf8' });
      expect(out).toContain('no TypeScript compiler here');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('is what npm runs at install, and npm start is the launcher', () => {
    const pkg = require(path.join(ROOT, 'package.json'));
    expect({ start: pkg.scripts.start, prepare: pkg.scripts.prepare, build: pkg.scripts.build }).toEqual({
      start: 'node --v8-pool-size=1 scripts/start.js', prepare: 'node scripts/build.js --if-possible', build: 'node scripts/build.js',
    });
    expect(pkg.dependencies.tsx).toBeDefined();
  });
});
