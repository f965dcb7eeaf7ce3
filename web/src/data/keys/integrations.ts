/** Integrations: API tokens, addons and their deliveries, single sign-on, and the scopes token forms offer. */
export const integrationKeys = {
  all: ['integrations'] as const,
  apiTokens: () => ['integrations', 'api-tokens'] as const,
  addons: () => ['integrations', 'addons'] as const,
  deliveries: (addonId: number) => ['integrations', 'addons', 'deliveries', addonId] as const,
  saml: () => ['integrations', 'saml'] as const,
  scopes: () => ['integrations', 'scopes'] as const,
};
