import type { Environment } from '../domain/environments/environment.shapes';
import { createSchema, updateSchema } from '../domain/environments/environment.service';
import { builder } from './builder';
import { defined } from './input';
import { zodInput } from './zod-input';

export const EnvironmentRef = builder.objectRef<Environment>('Environment').implement({
  description: 'A deployment environment (for example development or production) in which features are configured.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, URL-friendly name.' }),
    type: t.exposeString('type', { description: 'Environment type, for example development or production.' }),
    enabled: t.exposeBoolean('enabled', { description: 'False once switched off: it is then hidden from projects, while feature configuration in it is kept.' }),
    protected: t.exposeBoolean('protected', { description: 'Protected environments are created by the system.' }),
    sortOrder: t.exposeInt('sortOrder', { description: 'Position in lists; ties are ordered by name.' }),
  }),
});

builder.queryFields((t) => ({
  environments: t.field({
    type: [EnvironmentRef],
    description: 'Every environment, by sort order then name.',
    resolve: (_root, _args, ctx) => ctx.services.environments.list(),
  }),
  environment: t.field({
    type: EnvironmentRef,
    description: 'One environment; a NotFoundError when it does not exist.',
    args: { name: t.arg.string({ required: true, description: 'Environment name.' }) },
    resolve: (_root, args, ctx) => ctx.services.environments.get(args.name),
  }),
}));

const CreateEnvironmentInput = zodInput('CreateEnvironmentInput', createSchema, {
  description: 'A new environment.',
  descriptions: {
    name: 'URL-friendly name, 1..100 characters.',
    type: 'Environment type, 1..100 characters.',
    sortOrder: 'Position in lists (default 0).',
    enabled: 'Whether it starts switched on (default true).',
  },
});
const UpdateEnvironmentInput = zodInput('UpdateEnvironmentInput', updateSchema, {
  description: 'Changes to an environment; absent fields are untouched.',
  descriptions: { type: 'New type.', sortOrder: 'New position.' },
  fields: (t) => ({ name: t.string({ required: true, description: 'The environment to change.' }) }),
});
const EnvironmentNameInput = builder.inputType('EnvironmentNameInput', {
  description: 'Names one environment.',
  fields: (t) => ({ name: t.string({ required: true, description: 'Environment name.' }) }),
});

builder.mutationFields((t) => ({
  createEnvironment: t.field({
    type: EnvironmentRef,
    description: 'Creates an environment (permission ADMIN). Event environment-created.',
    args: { input: t.arg({ type: CreateEnvironmentInput, required: true, description: 'The environment to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.environments.create(defined(input) as never),
  }),
  updateEnvironment: t.field({
    type: EnvironmentRef,
    description: 'Changes an environment\'s type or sort order (permission ADMIN). Event environment-updated.',
    args: { input: t.arg({ type: UpdateEnvironmentInput, required: true, description: 'The environment and its changes.' }) },
    resolve: (_root, { input: { name, ...rest } }, ctx) => ctx.services.environments.update(name, defined(rest) as never),
  }),
  deleteEnvironment: t.boolean({
    description: 'Deletes an environment and all feature configuration in it (permission ADMIN). Event environment-deleted.',
    args: { input: t.arg({ type: EnvironmentNameInput, required: true, description: 'The environment to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.environments.remove(input.name);
      return true;
    },
  }),
  enableEnvironment: t.field({
    type: EnvironmentRef,
    description: 'Switches an environment on (permission ADMIN); the mirror of disableEnvironment.',
    args: { input: t.arg({ type: EnvironmentNameInput, required: true, description: 'The environment to switch on.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.environments.setEnabled(input.name, true),
  }),
  disableEnvironment: t.field({
    type: EnvironmentRef,
    description: 'Switches an environment off (permission ADMIN): projects no longer offer it; feature configuration in it is kept.',
    args: { input: t.arg({ type: EnvironmentNameInput, required: true, description: 'The environment to switch off.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.environments.setEnabled(input.name, false),
  }),
}));
