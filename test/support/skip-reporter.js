'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { fileRecord, skipLines } = require('./skip-report');

/**
 * A jest reporter beside the default one: prints `skipped <file>: <reason>` for each test file none of whose tests
 * ran, and a line for each block skipped for a reason (test/support/skip.ts) in a file that ran. With
 * FLAGDECK_SKIP_RECORD set (.ci/run), it writes what ran and what was skipped there, for .ci/run to compare its runs,
 * and beside it (`<record>.times.json`) how long each test file took, for .ci/run to name the slowest.
 */
class SkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.ran = new Set();
    this.skipped = {};
    this.seconds = {};
  }

  onTestResult(_test, result) {
    if (result.testExecError) return;
    const file = path.relative(this.rootDir, result.testFilePath).split(path.sep).join('/');
    if (result.perfStats) this.seconds[file] = (result.perfStats.end - result.perfStats.start) / 1000;
    const record = fileRecord(file, result.testResults);
    for (const k of record.ran) this.ran.add(k);
    for (const [k, reason] of record.skipped) this.skipped[k] = reason;
    for (const line of skipLines(file, record)) process.stderr.write(`${line}\n`);
  }

  onRunComplete() {
    const target = process.env.FLAGDECK_SKIP_RECORD;
    if (!target) return;
    fs.writeFileSync(target, JSON.stringify({ ran: [...this.ran].sort(), skipped: this.skipped }, null, 1));
    fs.writeFileSync(`${target}.times.json`, JSON.stringify(this.seconds, null, 1));
  }
}

module.exports = SkipReporter;
