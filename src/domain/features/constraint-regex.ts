import { RE2JS } from 're2js';

/**
 * A REGEX constraint's pattern compiled as SDKs compile it (unleash-client's RegexOperator): RE2 syntax as written,
 * no JavaScript translation, `caseInsensitive` as RE2's CASE_INSENSITIVE flag; matched with an unanchored search.
 * RE2 runs in time linear in the input, so no stored pattern can stall evaluation. Throws RE2JS's syntax error for a
 * pattern RE2 refuses (lookarounds, backreferences, unbalanced groups, repeat counts over 1000, ...). The save-time
 * check and the engine both compile through here, so a pattern accepted at save is the pattern evaluated.
 */
export function compileConstraintRegex(pattern: string, caseInsensitive: boolean): RE2JS {
  return RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
}

/** Why RE2 cannot compile a pattern (RE2JS's own words without its prefix), or null when it can. */
export function constraintRegexProblem(pattern: string, caseInsensitive: boolean): string | null {
  try {
    compileConstraintRegex(pattern, caseInsensitive);
    return null;
  } catch (err) {
    return (err as Error).message.replace(/^error parsing regexp: /, '');
  }
}
