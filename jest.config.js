const uiWithPostgres = process.env.FLAGDECK_UI_TESTS_WITH_POSTGRES === '1';
// .ci/run's two runs (FLAGDECK_CI_SPLIT=1) share out the files whose subject is not the database instead of running them
// twice: the unit tests (no database at all) go with the PostgreSQL run; the request sweeps (every endpoint with hostile
// text and bad bodies, every operation for every role: the same requests through the same code on either database) go
// with the embedded run, the default database. A run of its own (`npm test`) runs everything.
const ciSplit = process.env.FLAGDECK_CI_SPLIT === '1';
const sweeps = '<rootDir>/test/e2e/(permission-matrix|rest/hostile-text|rest/bad-input)\\.test\\.ts';
const uiStayEmbedded = 'ui-(team|playground-history)\\.test';
/** @type {import('jest').Config} */
const swc = ['@swc/jest', {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
}];
module.exports = {
  projects: [
    ...(ciSplit && !process.env.DATABASE_URL ? [] : [{
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      transform: { '^.+\\.ts$': swc },
    }]),
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      transform: { '^.+\\.ts$': swc },
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // test/e2e/process starts the service in child processes, always on the embedded database in a folder of its
      // own (they drop DATABASE_URL): a run against PostgreSQL leaves them to the embedded run instead of repeating them.
      // FLAGDECK_UI_TESTS_WITH_POSTGRES=1 (.ci/run, which runs both side by side) moves the web UI's browser tests
      // (ui-*, which start their own embedded service too) into the PostgreSQL run, so the two runs take about as long.
      // Two of them (uiStayEmbedded) stay with the embedded run, which evens out the two runs' lengths.
      testPathIgnorePatterns: process.env.DATABASE_URL
        ? ['/node_modules/', uiWithPostgres ? `<rootDir>/test/e2e/process/(?!ui-)|<rootDir>/test/e2e/process/${uiStayEmbedded}` : '<rootDir>/test/e2e/process/', ...(ciSplit ? [sweeps] : [])]
        : ['/node_modules/', ...(uiWithPostgres ? [`<rootDir>/test/e2e/process/ui-(?!${uiStayEmbedded.slice(3)})`] : [])],
    },
  ],
  // Beside jest's own output, a line for each suite skipped and why (test/support/skip.ts); .ci/run compares its runs' records.
  reporters: ['default', '<rootDir>/test/support/skip-reporter.js'],
  // PGlite serves one session; real PostgreSQL tests share one database: run files one at a time.
  maxWorkers: 1,
  // Each test file loads the app afresh in its own module registry, and a long-lived jest process keeps part of every
  // one (about 40 MB a file): run in band, the whole suite grew it past 3 GB and slowed everything down with it. With a
  // limit jest runs the files in a worker process instead and starts a fresh one once it has grown past the limit.
  workerIdleMemoryLimit: '700MB',
  testTimeout: 30000,
};
