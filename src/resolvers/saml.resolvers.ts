import { settingsSchema, type ServiceProviderUrls } from '../domain/access/saml-settings.service';
import type { SamlSettings } from '../domain/access/saml-settings.shapes';
import { builder } from './builder';
import { defined } from './input';
import { zodInput } from './zod-input';

/**
 * SAML settings on the GraphQL door (spec endpoint 11, issue 10): the same service methods as
 * GET/POST /api/admin/auth/saml/settings, so the same rules, errors and event.
 */

const ServiceProviderRef = builder.objectRef<ServiceProviderUrls>('SamlServiceProvider').implement({
  description: 'This service as a SAML service provider: what to enter in the identity provider.',
  fields: (t) => ({
    entityId: t.exposeString('entityId', { description: 'Its entity id (the audience its assertions must name).' }),
    acsUrl: t.exposeString('acsUrl', { description: 'Its assertion consumer service URL (HTTP-POST binding): where the identity provider posts its responses.' }),
    metadataUrl: t.exposeString('metadataUrl', { description: 'Its SAML 2.0 metadata (XML, needs no credentials): many identity providers read everything above from it.' }),
    loginUrl: t.exposeString('loginUrl', { description: 'Where a browser starts a SAML sign-in (answers 404 until sign-in is enabled).' }),
    logoutCallbackUrl: t.exposeString('logoutCallbackUrl', { description: 'Its single logout URL: where the identity provider sends its LogoutResponse.' }),
  }),
});

const SamlSettingsRef = builder.objectRef<SamlSettings>('SamlSettings').implement({
  description: 'How users sign in with SAML 2.0. Before any are saved: enabled false and the defaults.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Whether SAML sign-in is on.' }),
    entityId: t.exposeString('entityId', { nullable: true, description: "The identity provider's entity id (the Issuer of its responses)." }),
    signOnUrl: t.exposeString('signOnUrl', { nullable: true, description: "The identity provider's single sign-on URL (AuthnRequests go there)." }),
    certificate: t.exposeString('certificate', { nullable: true, description: "The identity provider's X.509 certificate that its assertions must be signed with." }),
    signOutUrl: t.exposeString('signOutUrl', { nullable: true, description: "The identity provider's single logout URL; null when single logout is off." }),
    spCertificate: t.exposeString('spCertificate', { nullable: true, description: "This service's own signing certificate (its requests to the identity provider are signed with the matching private key, which never leaves the service)." }),
    autoCreate: t.exposeBoolean('autoCreate', { description: 'Whether unknown users with an email in `emailDomains` are created at their first sign-in.' }),
    emailDomains: t.exposeString('emailDomains', { nullable: true, description: 'Comma-separated email domains for which users are created.' }),
    defaultRootRole: t.exposeString('defaultRootRole', { description: 'Root role of created users: Viewer, Editor or Admin.' }),
    serviceProvider: t.field({
      type: ServiceProviderRef,
      description: 'This service as a service provider: its entity id and URLs to give the identity provider (GraphQL only; REST serves GET /auth/saml/metadata).',
      resolve: (_settings, _args, ctx) => ctx.services.samlSettings.serviceProvider(),
    }),
  }),
});

// The identity provider's entity id, URL and certificate are optional here so that the service's own check names what is
// missing, as it does over REST.
const UpdateSamlSettingsInput = zodInput('UpdateSamlSettingsInput', settingsSchema, {
  description: 'The new SAML settings; they replace the old ones (absent optional fields are removed, absent booleans are false). Empty strings in optional fields mean absent.',
  optional: ['entityId', 'signOnUrl', 'certificate'],
  descriptions: {
    enabled: 'Whether SAML sign-in is on (default false).',
    entityId: "Required: the identity provider's entity id.",
    signOnUrl: "Required: the identity provider's single sign-on URL (absolute http or https).",
    certificate: "Required: the identity provider's X.509 certificate, PEM with or without the BEGIN/END lines.",
    signOutUrl: "The identity provider's single logout URL (absolute http or https).",
    spCertificate: "Left out, or this service's own certificate as read (it cannot be replaced: the service signs with its own key).",
    autoCreate: 'Create unknown users at their first sign-in (needs emailDomains; default false).',
    emailDomains: 'Comma-separated domain names, for example "example.com,example.org".',
    defaultRootRole: 'Viewer (default), Editor or Admin.',
  },
});

builder.queryFields((t) => ({
  samlSettings: t.field({
    type: SamlSettingsRef,
    description: 'The SAML settings (permission ADMIN; REST: GET /api/admin/auth/saml/settings).',
    resolve: (_root, _args, ctx) => ctx.services.samlSettings.get(),
  }),
}));

builder.mutationFields((t) => ({
  updateSamlSettings: t.field({
    type: SamlSettingsRef,
    description: 'Replaces the SAML settings (REST: POST /api/admin/auth/saml/settings). Event setting-updated (certificates by fingerprint), none when nothing changes.',
    args: { input: t.arg({ type: UpdateSamlSettingsInput, required: true, description: 'The settings.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.samlSettings.update(defined(input) as never),
  }),
}));
