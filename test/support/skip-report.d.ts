/** Types of test/support/skip-report.js (plain CommonJS: jest loads its reporter untransformed). */
export interface AssertionLike {
  ancestorTitles: string[];
  title: string;
  status: string;
}
export interface FileRecord {
  ran: Set<string>;
  skipped: Map<string, string>;
  wholeFile: boolean;
}
/** What one run wrote (FLAGDECK_SKIP_RECORD): the blocks that ran, and what was skipped with its reason. */
export interface RunRecord {
  ran: string[];
  skipped: Record<string, string>;
}
export const NO_REASON: string;
export function markTitle(title: string, reason: string): string;
export function fileRecord(file: string, assertionResults: AssertionLike[]): FileRecord;
export function skipLines(file: string, record: FileRecord): string[];
export function neverRan(runs: RunRecord[]): Array<{ what: string; reasons: string[] }>;
export function main(paths: string[]): number;
