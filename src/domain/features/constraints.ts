import { z } from 'zod';
import valid from 'semver/functions/valid';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { constraintRegexProblem } from './constraint-regex';
import { contextFieldLegalValues } from './constraints.read-model';
import { OPERATORS, type Constraint } from './constraint.shapes';

const LIST_OPERATORS: ReadonlySet<string> = new Set(['NOT_IN', 'IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS']);
const NUM_OPERATORS: ReadonlySet<string> = new Set(['NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE']);
const DATE_OPERATORS: ReadonlySet<string> = new Set(['DATE_AFTER', 'DATE_BEFORE']);
const SEMVER_OPERATORS: ReadonlySet<string> = new Set(['SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT', 'SEMVER_GTE', 'SEMVER_LTE']);

/** Shape of one constraint as clients send it; semantic rules (per operator, legal values) are checked by `checkConstraints`. */
export const constraintSchema = z.object({
  contextName: z.string().min(1).max(100),
  operator: z.enum(OPERATORS),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(z.string().min(1).max(100)).max(1000).optional(),
  // One limit for every single value, a REGEX pattern included: 100 characters keep compiling it cheap, and RE2's own
  // repeat limit (1000) keeps the compiled program small.
  value: z.string().max(100).optional(),
}).strict();
export const constraintsSchema = z.array(constraintSchema).max(100);

/**
 * The stored and returned form: defaults filled (inverted/caseInsensitive false, values []), `value` kept only when
 * given, keys in the documented order. Applied on write and on read (jsonb does not keep key order).
 */
export function normalizeConstraint(c: z.output<typeof constraintSchema>): Constraint {
  const out: Constraint = {
    contextName: c.contextName,
    operator: c.operator,
    values: c.values ?? [],
    caseInsensitive: c.caseInsensitive ?? false,
    inverted: c.inverted ?? false,
  };
  if (c.value !== undefined) out.value = c.value;
  return out;
}

const isNumeric = (v: string) => v.trim() !== '' && Number.isFinite(Number(v));

/**
 * Save-time rules (reference §3.4): the context field must exist (404, as Unleash v5.8), numeric, date and semver
 * operators need a valid single `value`, REGEX a pattern RE2 compiles, list operators need at least one value, and a
 * field with legal values accepts only those (a REGEX pattern included, as Unleash 8 checks it). `path` prefixes each detail (for example `constraints` or `segments/0/constraints`).
 */
export async function checkConstraints(em: EntityManager, input: z.output<typeof constraintsSchema>, path: string): Promise<Constraint[]> {
  if (input.length === 0) return [];
  const names = [...new Set(input.map((c) => c.contextName))];
  return checkConstraintsAgainst(await contextFieldLegalValues(em, names), input, path);
}

/**
 * `checkConstraints` with the context fields the constraints name already read (`fields`: each one's stored legal
 * values, by name), for a change that reads them together with other things in one statement.
 */
export function checkConstraintsAgainst(fields: Record<string, Array<{ value: string }> | null>, input: z.output<typeof constraintsSchema>, path: string): Constraint[] {
  const legal = new Map(Object.entries(fields).map(([name, values]) => [name, new Set((values ?? []).map((v) => v.value))]));
  const checked = constraintProblems(legal, input, path);
  if (checked.unknownField !== undefined) throw new NotFoundError(`Could not find Context field with name ${checked.unknownField}`);
  if (checked.details.length > 0) throw ValidationError.of(checked.details);
  return checked.constraints;
}

/**
 * The save-time rules of `checkConstraints` without the database: `legal` holds the legal values of every context
 * field there is, by name (an empty set: any value). Returns the constraints in stored form, the first field that
 * does not exist, and every broken rule, so a batch (an import) can check thousands of strategies with one read.
 */
export function constraintProblems(legal: ReadonlyMap<string, ReadonlySet<string>>, input: z.output<typeof constraintsSchema>, path: string): { constraints: Constraint[]; unknownField?: string; details: ErrorDetail[] } {
  const constraints = input.map(normalizeConstraint);
  const details: ErrorDetail[] = [];
  for (const [i, c] of constraints.entries()) {
    const at = `${path}/${i}`;
    const allowed = legal.get(c.contextName);
    if (!allowed) return { constraints, unknownField: c.contextName, details };
    const single = c.value;
    if (NUM_OPERATORS.has(c.operator)) {
      if (single === undefined || !isNumeric(single)) details.push({ path: `${at}/value`, message: `"value" must be a number. You sent ${JSON.stringify(single ?? null)}.` });
    } else if (DATE_OPERATORS.has(c.operator)) {
      if (single === undefined || Number.isNaN(Date.parse(single))) details.push({ path: `${at}/value`, message: `"value" must be a valid date. You sent ${JSON.stringify(single ?? null)}.` });
    } else if (SEMVER_OPERATORS.has(c.operator)) {
      // Strictly canonical ("v1.2.3" and "=1.2.3" are refused), as clients refuse to evaluate them.
      if (single === undefined || valid(single) !== single) details.push({ path: `${at}/value`, message: `the provided value is not a valid semver format. The value provided was: ${single ?? ''}` });
    } else if (c.operator === 'REGEX') {
      // Refused here, not at evaluation: SDKs would evaluate a pattern RE2 refuses as false for every context.
      const problem = single === undefined || single === '' ? 'it is empty' : constraintRegexProblem(single, c.caseInsensitive);
      if (problem !== null) details.push({ path: `${at}/value`, message: `"value" must be a regular expression RE2 accepts (${problem}). You sent ${JSON.stringify(single ?? null)}.` });
    } else if (LIST_OPERATORS.has(c.operator) && c.values.length === 0) {
      details.push({ path: `${at}/values`, message: `"values" must contain at least 1 items for the ${c.operator} operator.` });
    }
    if (allowed.size > 0) {
      const given = LIST_OPERATORS.has(c.operator) ? c.values : single === undefined ? [] : [single];
      const outside = given.filter((v) => !allowed.has(v));
      if (outside.length > 0) {
        details.push({ path: `${at}/${LIST_OPERATORS.has(c.operator) ? 'values' : 'value'}`, message: `input values are not specified as a legal value on this context field: ${outside.map((v) => JSON.stringify(v)).join(', ')}` });
      }
    }
  }
  return { constraints, details };
}
