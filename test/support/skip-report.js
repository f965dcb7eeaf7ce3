'use strict';
/**
 * Skipped tests, read from jest's results (test/support/skip-reporter.js) and compared across CI's runs (.ci/run).
 * Plain CommonJS: jest loads reporters without transforming them, and .ci/run runs this file with node.
 */
const fs = require('node:fs');

/** The title of a block skipped for a reason: `<title> [skipped: <reason>]` (test/support/skip.ts writes it). */
const MARKED = /^([\s\S]*) \[skipped: ([\s\S]*)\]$/;
const markTitle = (title, reason) => `${title} [skipped: ${reason}]`;
const NO_REASON = 'no reason given (skip it with describeWhen or itWhen from test/support/skip.ts, which say why)';
const RAN = new Set(['passed', 'failed']);
const key = (file, titles) => [file, ...titles].join(' › ');

/**
 * What one test file's results say: `ran` is the file and every block (each prefix of a test's titles) in which a
 * test ran; `skipped` maps each marked block that was skipped to its reason, and the file itself when none of its
 * tests ran (its reason: the reasons of its marked blocks, or NO_REASON). `wholeFile` tells the two apart.
 */
function fileRecord(file, assertionResults) {
  const ran = new Set();
  const skipped = new Map();
  for (const r of assertionResults) {
    const titles = [...r.ancestorTitles, r.title];
    if (RAN.has(r.status)) {
      ran.add(file);
      for (let i = 1; i <= titles.length; i += 1) ran.add(key(file, titles.slice(0, i)));
      continue;
    }
    const at = titles.findIndex((t) => MARKED.test(t));
    if (at === -1) continue;
    const [, bare, reason] = MARKED.exec(titles[at]);
    skipped.set(key(file, [...titles.slice(0, at), bare]), reason);
  }
  const wholeFile = assertionResults.length > 0 && !ran.has(file);
  if (wholeFile) skipped.set(file, [...new Set(skipped.values())].join('; ') || NO_REASON);
  return { ran, skipped, wholeFile };
}

/** The lines a run prints for one file: one for a file none of whose tests ran, else one per marked block skipped. */
function skipLines(file, record) {
  if (record.wholeFile) return [`skipped ${file}: ${record.skipped.get(file)}`];
  return [...record.skipped].map(([what, reason]) => `skipped ${what}: ${reason}`);
}

/**
 * What no run ran: each entry some run skipped and no run ran (skipped in every run that has it; a run that does not
 * have the file at all, as test/e2e/process in the PostgreSQL run, does not run it either). Sorted, with its reasons.
 */
function neverRan(runs) {
  const ran = new Set(runs.flatMap((r) => r.ran));
  const reasons = new Map();
  for (const run of runs) {
    for (const [what, reason] of Object.entries(run.skipped)) {
      if (ran.has(what)) continue;
      reasons.set(what, [...new Set([...(reasons.get(what) ?? []), reason])]);
    }
  }
  // A file that never ran is named once, not with each of its blocks besides.
  const inMissedFile = (what) => { const at = what.indexOf(' › '); return at !== -1 && reasons.has(what.slice(0, at)); };
  return [...reasons].filter(([what]) => !inMissedFile(what)).sort(([a], [b]) => a.localeCompare(b)).map(([what, why]) => ({ what, reasons: why }));
}

/** `node test/support/skip-report.js <record>...`: exit 1, naming them, when something was skipped by every run. */
function main(paths) {
  const runs = [];
  for (const p of paths) {
    if (!fs.existsSync(p)) {
      console.error(`== no record of skipped tests at ${p}: that run did not finish its report`);
      return 1;
    }
    runs.push(JSON.parse(fs.readFileSync(p, 'utf8')));
  }
  const missed = neverRan(runs);
  if (missed.length === 0) return 0;
  console.error(`== skipped by every run, so CI never ran ${missed.length === 1 ? 'it' : 'them'}:`);
  for (const m of missed) console.error(`  ${m.what}: ${m.reasons.join('; ')}`);
  return 1;
}

module.exports = { markTitle, fileRecord, skipLines, neverRan, main, NO_REASON };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
