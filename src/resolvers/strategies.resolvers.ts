import { createSchema, updateSchema } from '../domain/strategies/strategy-definition.service';
import { STRATEGY_PARAMETER_TYPES, type StrategyDefinition, type StrategyParameter } from '../domain/strategies/strategy-definition.shapes';
import { builder } from './builder';
import { defined } from './input';
import { enumType, itemOf, zodInput } from './zod-input';

const PARAMETER_TYPE_DESCRIPTIONS: Record<(typeof STRATEGY_PARAMETER_TYPES)[number], string> = {
  string: 'Free text.',
  percentage: 'A whole number from 0 to 100.',
  list: 'A comma-separated list of values.',
  number: 'A number.',
  boolean: 'true or false.',
};

const StrategyParameterTypeEnum = enumType('StrategyParameterType', STRATEGY_PARAMETER_TYPES, {
  description: 'What kind of value a strategy parameter holds.',
  valueDescriptions: PARAMETER_TYPE_DESCRIPTIONS,
});

const StrategyParameterRef = builder.objectRef<StrategyParameter>('StrategyParameter').implement({
  description: 'A parameter that feature strategies of this type set.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Parameter name, unique within the definition.' }),
    type: t.field({ type: StrategyParameterTypeEnum, description: 'Kind of value.', resolve: (p) => p.type }),
    description: t.exposeString('description', { description: 'What the parameter does (empty when not given).' }),
    required: t.exposeBoolean('required', { description: 'Whether a feature strategy must set it.' }),
  }),
});

export const StrategyDefinitionRef = builder.objectRef<StrategyDefinition>('StrategyDefinition').implement({
  description: 'A strategy type (activation strategy definition) that feature strategies can use: built in, or custom.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name; feature strategies refer to it.' }),
    displayName: t.exposeString('displayName', { nullable: true, description: 'Human-readable name.' }),
    title: t.exposeString('title', { nullable: true, description: 'Title.' }),
    description: t.exposeString('description', { nullable: true, description: 'What the strategy does.' }),
    editable: t.exposeBoolean('editable', { description: 'False for built-in definitions, which cannot be changed or deleted.' }),
    deprecated: t.exposeBoolean('deprecated', { description: 'Deprecated definitions still work but should not be used for new strategies.' }),
    parameters: t.field({ type: [StrategyParameterRef], description: 'Declared parameters, in their order.', resolve: (s) => s.parameters }),
  }),
});

builder.queryFields((t) => ({
  strategies: t.field({
    type: [StrategyDefinitionRef],
    description: 'Every strategy definition, by sort order then name.',
    resolve: (_root, _args, ctx) => ctx.services.strategies.list(),
  }),
  strategy: t.field({
    type: StrategyDefinitionRef,
    description: 'One strategy definition; a NotFoundError when it does not exist.',
    args: { name: t.arg.string({ required: true, description: 'Strategy definition name.' }) },
    resolve: (_root, args, ctx) => ctx.services.strategies.get(args.name),
  }),
}));

// Built for the definition inputs that hold it.
zodInput('StrategyParameterInput', itemOf(createSchema.shape.parameters), {
  description: 'A parameter of a strategy definition.',
  descriptions: {
    name: 'Parameter name, 1..100 characters, unique within the definition.',
    type: 'Kind of value.',
    description: 'What the parameter does (default empty).',
    required: 'Whether a feature strategy must set it (default false).',
  },
});
const CreateStrategyInput = zodInput('CreateStrategyInput', createSchema, {
  description: 'A new custom strategy definition.',
  descriptions: {
    name: 'URL-friendly name, 1..100 characters.',
    displayName: 'Human-readable name, up to 100 characters.',
    title: 'Title, up to 100 characters.',
    description: 'What the strategy does.',
    editable: 'Accepted for compatibility; only true is allowed (custom definitions are always editable).',
    parameters: 'Declared parameters (default none).',
  },
});
const UpdateStrategyInput = zodInput('UpdateStrategyInput', updateSchema, {
  description: 'Changes to a custom strategy definition; absent fields are untouched, null empties a text.',
  descriptions: {
    displayName: 'Human-readable name.',
    title: 'Title.',
    description: 'What the strategy does.',
    editable: 'Accepted for compatibility; only true is allowed.',
    parameters: 'Replaces the declared parameters.',
  },
  fields: (t) => ({ name: t.string({ required: true, description: 'The definition to change (it cannot be renamed).' }) }),
});
const nameInput = (typeName: string, what: string) => builder.inputType(typeName, {
  description: `Names the strategy definition to ${what}.`,
  fields: (t) => ({ name: t.string({ required: true, description: 'Strategy definition name.' }) }),
});
const DeprecateStrategyInput = nameInput('DeprecateStrategyInput', 'deprecate');
const ReactivateStrategyInput = nameInput('ReactivateStrategyInput', 'reactivate');
const DeleteStrategyInput = nameInput('DeleteStrategyInput', 'delete');

const cleanParameters = <T extends { parameters?: Array<Record<string, unknown>> | null }>(input: T) =>
  defined({ ...input, parameters: input.parameters?.map((p) => defined(p)) });

builder.mutationFields((t) => ({
  createStrategy: t.field({
    type: StrategyDefinitionRef,
    description: 'Creates a custom strategy definition (permission CREATE_STRATEGY). Event strategy-created.',
    args: { input: t.arg({ type: CreateStrategyInput, required: true, description: 'The definition to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.strategies.create(cleanParameters(input) as never),
  }),
  updateStrategy: t.field({
    type: StrategyDefinitionRef,
    description: 'Changes a custom strategy definition (permission UPDATE_STRATEGY); built-in ones are an InvalidOperationError. Event strategy-updated.',
    args: { input: t.arg({ type: UpdateStrategyInput, required: true, description: 'The definition and its changes.' }) },
    resolve: (_root, { input: { name, ...rest } }, ctx) => ctx.services.strategies.update(name, cleanParameters(rest) as never),
  }),
  deprecateStrategy: t.field({
    type: StrategyDefinitionRef,
    description: 'Deprecates a strategy definition, built-in ones included except `default` (permission UPDATE_STRATEGY). Event strategy-deprecated, unless it already was.',
    args: { input: t.arg({ type: DeprecateStrategyInput, required: true, description: 'The definition to deprecate.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.strategies.deprecate(input.name),
  }),
  reactivateStrategy: t.field({
    type: StrategyDefinitionRef,
    description: 'Reactivates a deprecated strategy definition (permission UPDATE_STRATEGY). Event strategy-reactivated, unless it was active.',
    args: { input: t.arg({ type: ReactivateStrategyInput, required: true, description: 'The definition to reactivate.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.strategies.reactivate(input.name),
  }),
  deleteStrategy: t.boolean({
    description: 'Deletes a custom strategy definition no feature strategy uses (permission DELETE_STRATEGY). Event strategy-deleted.',
    args: { input: t.arg({ type: DeleteStrategyInput, required: true, description: 'The definition to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.strategies.remove(input.name);
      return true;
    },
  }),
}));
