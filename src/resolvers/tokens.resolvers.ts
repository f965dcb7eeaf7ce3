import { createSchema as createApiTokenSchema } from '../domain/access/api-token.service';
import type { ApiToken, ApiTokenCreated } from '../domain/access/api-token.shapes';
import { createSchema as createPersonalTokenSchema } from '../domain/access/personal-token.service';
import type { PersonalAccessToken, PersonalAccessTokenCreated } from '../domain/access/personal-token.shapes';
import { builder } from './builder';
import { defined, IdInput } from './input';
import { zodInput } from './zod-input';

/** API tokens (admin, client, frontend) and the caller's personal access tokens. */

const ApiTokenRef = builder.objectRef<ApiToken & Partial<Pick<ApiTokenCreated, 'secret'>>>('ApiToken').implement({
  description: 'An API token: admin, client (backend SDKs) or frontend. Its secret is shown only when it is created.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Token id; tokens are addressed by id or by secret.' }),
    secret: t.string({ nullable: true, description: 'The secret, in the create answer only; null everywhere else.', resolve: (tk) => tk.secret ?? null }),
    tokenName: t.exposeString('tokenName', { description: 'Name.' }),
    type: t.exposeString('type', { description: 'admin, client or frontend.' }),
    environment: t.exposeString('environment', { description: 'The environment it reads (`*` for an admin token).' }),
    projects: t.exposeStringList('projects', { description: 'The projects it reads (`*` for all).' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Expiry; null for never.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last use (updated at most once a second).' }),
  }),
});

const PersonalAccessTokenRef = builder.objectRef<PersonalAccessToken & Partial<Pick<PersonalAccessTokenCreated, 'secret'>>>('PersonalAccessToken').implement({
  description: "A personal access token: acts with its user's permissions. Its secret is shown only when it is created.",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Token id.' }),
    secret: t.string({ nullable: true, description: 'The secret, in the create answer only; null everywhere else.', resolve: (tk) => tk.secret ?? null }),
    description: t.exposeString('description', { description: 'What it is for.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Expiry.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    seenAt: t.expose('seenAt', { type: 'DateTime', nullable: true, description: 'Last use.' }),
  }),
});
builder.queryFields((t) => ({
  apiTokens: t.field({ type: [ApiTokenRef], description: 'The API tokens the caller may read (never their secrets).', resolve: (_root, _args, ctx) => ctx.services.apiTokens.list() }),
  personalAccessTokens: t.field({ type: [PersonalAccessTokenRef], description: "The caller's personal access tokens (never their secrets).", resolve: (_root, _args, ctx) => ctx.services.personalTokens.list() }),
}));

// ---- inputs ---------------------------------------------------------------------------------------------------------

// The name is required here (REST also takes it as `username`, or a single `project`); times are DateTime.
const CreateApiTokenInput = zodInput('CreateApiTokenInput', createApiTokenSchema, {
  description: 'A new API token.',
  omit: ['username', 'project'],
  descriptions: {
    type: 'admin, client or frontend.',
    environment: 'The environment a client or frontend token reads (default `development`).',
    projects: 'The projects it reads (default all: `*`).',
  },
  fields: (t) => ({
    tokenName: t.string({ required: true, description: 'Name.' }),
    expiresAt: t.field({ type: 'DateTime', description: 'Expiry; absent or null for never.' }),
  }),
});
const UpdateApiTokenInput = builder.inputType('UpdateApiTokenInput', {
  description: "A token's new expiry.",
  fields: (t) => ({
    token: t.string({ required: true, description: 'The token, by id or secret.' }),
    expiresAt: t.field({ type: 'DateTime', required: true, description: 'The new expiry.' }),
  }),
});
const ApiTokenRefInput = builder.inputType('ApiTokenRefInput', {
  description: 'Names one API token.',
  fields: (t) => ({ token: t.string({ required: true, description: 'The token, by id or secret.' }) }),
});
const CreatePersonalAccessTokenInput = zodInput('CreatePersonalAccessTokenInput', createPersonalTokenSchema, {
  description: 'A new personal access token of the caller.',
  descriptions: { description: 'What it is for.' },
  fields: (t) => ({ expiresAt: t.field({ type: 'DateTime', required: true, description: 'Expiry.' }) }),
});

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: ApiTokenRef,
    description: 'Creates an API token; the answer carries its secret, once. Event api-token-created.',
    args: { input: t.arg({ type: CreateApiTokenInput, required: true, description: 'The token.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.apiTokens.create(defined(input)),
  }),
  updateApiToken: t.field({
    type: ApiTokenRef,
    description: "Changes a token's expiry. Event api-token-updated.",
    args: { input: t.arg({ type: UpdateApiTokenInput, required: true, description: 'The token and its expiry.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.apiTokens.update(input.token, { expiresAt: input.expiresAt }),
  }),
  deleteApiToken: t.boolean({
    description: 'Deletes (revokes) an API token: every instance refuses it within a second. Event api-token-deleted.',
    args: { input: t.arg({ type: ApiTokenRefInput, required: true, description: 'The token.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.apiTokens.delete(input.token); return true; },
  }),
  createPersonalAccessToken: t.field({
    type: PersonalAccessTokenRef,
    description: 'Creates a personal access token of the caller; the answer carries its secret, once. Event pat-created.',
    args: { input: t.arg({ type: CreatePersonalAccessTokenInput, required: true, description: 'The token.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.personalTokens.create({ ...input }),
  }),
  deletePersonalAccessToken: t.boolean({
    description: 'Deletes one of the caller\'s personal access tokens. Event pat-deleted.',
    args: { input: t.arg({ type: IdInput, required: true, description: 'The token.' }) },
    resolve: async (_root, { input }, ctx) => { await ctx.services.personalTokens.delete(String(input.id)); return true; },
  }),
}));
