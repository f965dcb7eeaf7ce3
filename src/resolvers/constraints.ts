import { constraintSchema } from '../domain/features/constraints';
import { OPERATORS, type Constraint } from '../domain/features/constraint.shapes';
import { builder } from './builder';
import { enumType, zodInput } from './zod-input';

/**
 * The constraint contract of the GraphQL door: the operator enum, the stored constraint (segments, strategies, exports)
 * and the constraint input (segment and strategy mutations). The operators are the service's own list.
 */
export const ConstraintOperatorEnum = enumType('ConstraintOperator', OPERATORS, {
  description: 'How a constraint compares the context value: IN, NOT_IN and the STR_* operators with its `values`; the NUM_*, DATE_* and SEMVER_* operators and REGEX with its single `value`.',
});

/** A constraint as stored on segments and strategies; FeatureStrategy reuses this type. */
export const ConstraintRef = builder.objectRef<Constraint>('Constraint').implement({
  description: 'A condition on one field of the client context.',
  fields: (t) => ({
    contextName: t.exposeString('contextName', { description: 'The context field the constraint reads.' }),
    operator: t.expose('operator', { type: ConstraintOperatorEnum, description: 'How the context value is compared.' }),
    values: t.exposeStringList('values', { description: 'Values for the list operators (IN, NOT_IN, STR_*); empty otherwise.' }),
    value: t.string({ nullable: true, description: 'The single value of the numeric, date and semver operators, or the RE2 pattern of REGEX; null when not given.', resolve: (c) => c.value ?? null }),
    caseInsensitive: t.exposeBoolean('caseInsensitive', { description: 'Whether the string operators and REGEX ignore case.' }),
    inverted: t.exposeBoolean('inverted', { description: 'Whether the result is negated.' }),
  }),
});

/** A constraint as clients send it; segment and strategy mutations use this input. */
export const ConstraintInput = zodInput('ConstraintInput', constraintSchema, {
  description: 'A condition on one field of the client context.',
  descriptions: {
    contextName: 'An existing context field.',
    operator: 'How the context value is compared.',
    values: 'Values for the list operators (at least one); up to 1000 values of 1..100 characters.',
    value: 'The single value of the numeric, date and semver operators, or for REGEX a pattern RE2 compiles (searched anywhere in the context value; up to 100 characters).',
    caseInsensitive: 'Whether the string operators and REGEX ignore case (default false).',
    inverted: 'Whether the result is negated (default false).',
  },
});
