import { z } from 'zod';
import { named } from '../shapes';

/** A strategy's or a segment's constraint as both doors answer it (src/domain/shapes.ts says how shapes are used). */

/** The spec's 15 constraint operators, then the three Unleash 8.2 added (issue 32). */
export const OPERATORS = [
  'NOT_IN', 'IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS', 'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE',
  'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT', 'SEMVER_GTE', 'SEMVER_LTE', 'REGEX',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** A constraint's fields, which the playground's answer repeats with the constraint's result. */
export const constraintFields = {
  contextName: z.string().describe('The context field the constraint tests'),
  operator: z.enum(OPERATORS),
  values: z.array(z.string()).describe('The values of the list operators (empty for the others)'),
  value: z.string().optional().describe('The single value of the number, date and semver operators, or the RE2 pattern of REGEX (absent when none was given)'),
  caseInsensitive: z.boolean().describe('Whether the string operators and REGEX ignore case'),
  inverted: z.boolean().describe('A true result becomes false and the other way round'),
};

/** The stored and returned form (`normalizeConstraint`, constraints.ts): defaults filled, `value` only when given. */
export const Constraint = named('Constraint', z.object(constraintFields), 'A condition on one context field');
export type Constraint = z.output<typeof Constraint>;
