import { createSchema, updateSchema } from '../domain/access/signup-token.service';
import type { SignupToken } from '../domain/access/signup-token.shapes';
import { RoleRef } from './roles.resolvers';
import { roleRef, UserRef } from './users.resolvers';
import { builder } from './builder';
import { defined } from './input';
import { zodInput } from './zod-input';

/**
 * Public signup tokens on the GraphQL door (issue 10, spec endpoint 7): the admin side only. Using an invite link
 * (`/invite/:secret/validate`, `/invite/:secret/signup`) needs no credentials, so it stays on REST, as in Unleash.
 */

const SignupTokenRef = builder.objectRef<SignupToken>('PublicSignupToken').implement({
  description: 'An invite link anyone holding it can sign up with, while it is enabled and not expired.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'The secret the link carries; the token is addressed by it.' }),
    url: t.exposeString('url', { description: 'The signup link to share.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the link can be used: always false once it has expired.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When the link stops working.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: "The creator's username, email or API token name." }),
    role: t.field({ type: RoleRef, description: 'The root role people who sign up with the link get.', resolve: (tk) => ({ ...tk.role, description: tk.role.description ?? '' }) }),
    users: t.field({ type: [UserRef], description: 'The users who signed up with the link.', resolve: (tk) => tk.users }),
  }),
});

// Times are DateTime here, a role a text (an id or a name).
const CreateSignupTokenInput = zodInput('CreatePublicSignupTokenInput', createSchema, {
  description: 'A new invite link.',
  descriptions: { name: 'Display name.' },
  fields: (t) => ({
    expiresAt: t.field({ type: 'DateTime', required: true, description: 'When it stops working: at most one month ahead (a later date is brought back to that).' }),
    role: t.string({ description: 'Root role of the people who sign up, by id or name; Viewer when absent.' }),
  }),
});

const UpdateSignupTokenInput = zodInput('UpdatePublicSignupTokenInput', updateSchema, {
  description: "An invite link's changes: at least one of expiresAt and enabled.",
  descriptions: { enabled: 'Whether the link may be used.' },
  fields: (t) => ({
    secret: t.string({ required: true, description: 'The token.' }),
    expiresAt: t.field({ type: 'DateTime', description: 'New expiry (not capped: a past date ends the link at once).' }),
  }),
});

builder.queryFields((t) => ({
  publicSignupTokens: t.field({
    type: [SignupTokenRef],
    description: 'Every invite link, with the users who signed up with it. Needs ADMIN.',
    resolve: (_root, _args, ctx) => ctx.services.signupTokens.list(),
  }),
  publicSignupToken: t.field({
    type: SignupTokenRef,
    description: 'One invite link by its secret (NotFoundError when there is none). Needs ADMIN.',
    args: { secret: t.arg.string({ required: true, description: 'The secret.' }) },
    resolve: (_root, { secret }, ctx) => ctx.services.signupTokens.get(secret),
  }),
}));

builder.mutationFields((t) => ({
  createPublicSignupToken: t.field({
    type: SignupTokenRef,
    description: 'Creates an invite link. Event public-signup-token-created.',
    args: { input: t.arg({ type: CreateSignupTokenInput, required: true, description: 'The link.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.signupTokens.create(defined({ ...input, role: roleRef(input.role) ?? undefined })),
  }),
  updatePublicSignupToken: t.field({
    type: SignupTokenRef,
    description: "Changes an invite link's expiry or whether it may be used. Event public-signup-token-updated.",
    args: { input: t.arg({ type: UpdateSignupTokenInput, required: true, description: 'The link and its changes.' }) },
    resolve: (_root, { input: { secret, ...rest } }, ctx) => ctx.services.signupTokens.update(secret, defined(rest)),
  }),
}));
