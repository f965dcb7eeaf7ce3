import type { describe, it } from '@jest/globals';
import { markTitle } from './skip-report';

/** jest's globals, asked for when a suite is declared: a script that imports a harness (bench/ui-flags.ts) runs outside jest. */
const jestGlobals = () => require('@jest/globals') as typeof import('@jest/globals');

type Block = Parameters<typeof describe>[1];
type Test = Parameters<typeof it>[1];

/**
 * `describe` when `condition` holds; otherwise the block is skipped with `reason` in its title, which the skip
 * reporter (test/support/skip-reporter.js) prints as `skipped <file>: <reason>` and .ci/run checks: a block that every
 * CI run skips fails CI. The reason says what is missing and how to provide it.
 */
export function describeWhen(condition: boolean, reason: string): (name: string, block: Block) => void {
  return condition ? (name, block) => jestGlobals().describe(name, block) : (name, block) => jestGlobals().describe.skip(markTitle(name, reason), block);
}

/** `it` when `condition` holds; otherwise skipped with `reason`, as describeWhen does. */
export function itWhen(condition: boolean, reason: string): (name: string, test: Test, timeout?: number) => void {
  return condition ? (name, test, timeout) => jestGlobals().it(name, test, timeout) : (name, test, timeout) => jestGlobals().it.skip(markTitle(name, reason), test, timeout);
}

/** Whether this run has a PostgreSQL server (global-setup sets FLAGDECK_TEST_DB when DATABASE_URL names one). */
export const onPostgres = Boolean(process.env.FLAGDECK_TEST_DB);
/** The reason of the tests that need one: several connections, or LISTEN/NOTIFY between instances. */
export const NEEDS_POSTGRES = 'needs a PostgreSQL server (run with DATABASE_URL=postgresql://...); the embedded database serves one connection';
