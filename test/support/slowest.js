'use strict';
/**
 * `node test/support/slowest.js <label>=<times.json> ...`: the ten slowest test files of CI's runs (.ci/run), from the
 * times test/support/skip-reporter.js recorded, and each run's sum, so a slow CI names what to make cheaper.
 */
const fs = require('node:fs');

const rows = [];
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf('=');
  const label = arg.slice(0, at);
  let times = {};
  try {
    times = JSON.parse(fs.readFileSync(arg.slice(at + 1), 'utf8'));
  } catch {
    console.log(`(no times recorded by the ${label} run)`);
    continue;
  }
  const entries = Object.entries(times);
  const sum = entries.reduce((s, [, t]) => s + t, 0);
  console.log(`${label}: ${entries.length} files, ${sum.toFixed(0)} s of test files in all`);
  for (const [file, seconds] of entries) rows.push({ label, file, seconds });
}
rows.sort((a, b) => b.seconds - a.seconds);
console.log('the ten slowest test files:');
for (const r of rows.slice(0, 10)) console.log(`${r.seconds.toFixed(1).padStart(7)} s  ${r.label.padEnd(10)} ${r.file}`);
