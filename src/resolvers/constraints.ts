import { OPERATORS, type Constraint } from '../domain/features/constraints';
import { builder } from './builder';

/**
 * The constraint contract of the GraphQL door: the operator enum, the stored constraint (segments, strategies, exports)
 * and the constraint input (segment and strategy mutations). The operators are the service's own list.
 */
export const ConstraintOperatorEnum = builder.enumType('ConstraintOperator', {
  description: 'How a constraint compares the context value: IN, NOT_IN and the STR_* operators with its `values`; the NUM_*, DATE_* and SEMVER_* operators and REGEX with its single `value`.',
  values: OPERATORS,
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
export const ConstraintInput = builder.inputType('ConstraintInput', {
  description: 'A condition on one field of the client context.',
  fields: (t) => ({
    contextName: t.string({ required: true, description: 'An existing context field.' }),
    operator: t.field({ type: ConstraintOperatorEnum, required: true, description: 'How the context value is compared.' }),
    values: t.stringList({ description: 'Values for the list operators (at least one); up to 1000 values of 1..100 characters.' }),
    value: t.string({ description: 'The single value of the numeric, date and semver operators, or for REGEX a pattern RE2 compiles (searched anywhere in the context value; up to 100 characters).' }),
    caseInsensitive: t.boolean({ description: 'Whether the string operators and REGEX ignore case (default false).' }),
    inverted: t.boolean({ description: 'Whether the result is negated (default false).' }),
  }),
});
