import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { CreateAddonInput, CreateApiTokenInput, UpdateSamlSettingsInput } from '../gql/graphql';
import { integrationKeys, sessionKeys } from './keys';
import { useAppMutation } from './mutation';

// API tokens, addons and their deliveries, single sign-on. Operation names as before ("ApiTokens…", "Addons…",
// "AuthSaml…", "IntegrationsScopes").

// ---- the projects and environments the token and addon forms offer ------------------------------------------------

const ScopesQuery = graphql(`query IntegrationsScopes { projects { id name } environments { name enabled sortOrder } }`);

/** The choices of the forms' project and environment fields (one query, one cache entry, for both pages). */
export function useScopes() {
  const query = useQuery({ queryKey: integrationKeys.scopes(), queryFn: () => gql(ScopesQuery), staleTime: 30_000 });
  const projects = (query.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }));
  const environments = [...(query.data?.environments ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name))
    .map((e) => ({ value: e.name, label: e.enabled ? e.name : `${e.name} (disabled)` }));
  return { projects, environments, error: query.error, pending: query.isPending };
}

// ---- API tokens ---------------------------------------------------------------------------------------------------

const TokensQuery = graphql(`query ApiTokensList { apiTokens { id tokenName type projects environment createdAt seenAt expiresAt } }`);
const CreateTokenMutation = graphql(`
  mutation ApiTokensCreate($input: CreateApiTokenInput!) { createApiToken(input: $input) { id tokenName type projects environment secret } }
`);
const UpdateTokenMutation = graphql(`mutation ApiTokensUpdateExpiry($input: UpdateApiTokenInput!) { updateApiToken(input: $input) { id expiresAt } }`);
const RevokeTokenMutation = graphql(`mutation ApiTokensRevoke($input: ApiTokenRefInput!) { deleteApiToken(input: $input) }`);

export const useApiTokens = () => useQuery({ queryKey: integrationKeys.apiTokens(), queryFn: () => gql(TokensQuery) });

/** A new API token: the answer holds its secret, shown once. */
export const useCreateApiToken = () => useAppMutation({
  mutationFn: (input: CreateApiTokenInput) => gql(CreateTokenMutation, { input }),
  invalidates: [integrationKeys.apiTokens()],
});

/** A token's new expiry (a date in the past ends it then). */
export const useUpdateApiTokenExpiry = () => useAppMutation({
  mutationFn: ({ id, expiresAt }: { id: number; expiresAt: string }) => gql(UpdateTokenMutation, { input: { token: String(id), expiresAt } }),
  invalidates: [integrationKeys.apiTokens()],
});

export const useRevokeApiToken = () => useAppMutation({
  mutationFn: (token: { id: number; tokenName: string }) => gql(RevokeTokenMutation, { input: { token: String(token.id) } }),
  invalidates: [integrationKeys.apiTokens()],
  done: (_r, token) => `${token.tokenName} was revoked: SDKs using it are refused from now on.`,
});

// ---- addons -------------------------------------------------------------------------------------------------------

const AddonsQuery = graphql(`
  query AddonsList {
    addonProviders {
      name displayName description documentationUrl events
      parameters { name displayName type description required sensitive placeholder }
    }
    addons { id provider description enabled parameters events projects environments createdAt }
  }
`);
const CreateAddonMutation = graphql(`mutation AddonsCreate($input: CreateAddonInput!) { createAddon(input: $input) { id } }`);
const UpdateAddonMutation = graphql(`mutation AddonsUpdate($input: UpdateAddonInput!) { updateAddon(input: $input) { id } }`);
const SetEnabledMutation = graphql(`mutation AddonsSetEnabled($input: UpdateAddonInput!) { updateAddon(input: $input) { id enabled } }`);
const DeleteAddonMutation = graphql(`mutation AddonsDelete($input: AddonIdInput!) { deleteAddon(input: $input) }`);
const DeliveriesQuery = graphql(`
  query AddonsDeliveries($id: Int!, $after: String) {
    addon(id: $id) {
      id
      deliveries(first: 10, after: $after) {
        nodes {
          id eventId eventType status createdAt finishedAt nextAttemptAt redeliveryOf
          attempts { attempt at statusCode error durationMs }
        }
        pageInfo { endCursor hasNextPage }
      }
    }
  }
`);
const RedeliverMutation = graphql(`mutation AddonsRedeliver($input: RedeliverAddonDeliveryInput!) { redeliverAddonDelivery(input: $input) { id status } }`);

/** The providers to create an addon of, and every addon. A change of addons also refreshes their deliveries (a prefix). */
export const useAddons = () => useQuery({ queryKey: integrationKeys.addons(), queryFn: () => gql(AddonsQuery) });

/** A new addon, or an addon's changes (`id` given). */
export const useSaveAddon = (id?: number) => useAppMutation({
  mutationFn: async (input: CreateAddonInput): Promise<number> => (id !== undefined
    ? (await gql(UpdateAddonMutation, { input: { ...input, id } })).updateAddon.id
    : (await gql(CreateAddonMutation, { input })).createAddon.id),
  invalidates: [integrationKeys.addons()],
});

/** An addon switched on or off; its card shows the asked state while the change is on its way (`variables`). */
export const useSetAddonEnabled = (id: number) => useAppMutation({
  mutationFn: (enabled: boolean) => gql(SetEnabledMutation, { input: { id, enabled } }),
  invalidates: [integrationKeys.addons()],
});

export const useDeleteAddon = () => useAppMutation({
  mutationFn: (addon: { id: number; label: string }) => gql(DeleteAddonMutation, { input: { id: addon.id } }),
  invalidates: [integrationKeys.addons()],
  done: (_r, addon) => `${addon.label} was deleted.`,
});

/** While a delivery is pending its status is asked again this often; otherwise now and then, for new ones. */
const PENDING_POLL_MS = 2_000;
const IDLE_POLL_MS = 5_000;

/** An addon's deliveries, newest first, ten a page. */
export const useAddonDeliveries = (addonId: number) => useInfiniteQuery({
  queryKey: integrationKeys.deliveries(addonId),
  queryFn: ({ pageParam }) => gql(DeliveriesQuery, { id: addonId, after: pageParam }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => (last.addon.deliveries.pageInfo.hasNextPage ? last.addon.deliveries.pageInfo.endCursor ?? null : null),
  refetchInterval: (q) => (q.state.data?.pages.some((p) => p.addon.deliveries.nodes.some((d) => d.status === 'pending')) ? PENDING_POLL_MS : IDLE_POLL_MS),
});

/** A delivery sent again, as a new one. */
export const useRedeliver = (addonId: number) => useAppMutation({
  mutationFn: (deliveryId: string) => gql(RedeliverMutation, { input: { addonId, deliveryId } }),
  invalidates: [integrationKeys.deliveries(addonId)],
  done: 'Sent again, as a new delivery.',
});

// ---- single sign-on -----------------------------------------------------------------------------------------------

const SamlQuery = graphql(`
  query AuthSamlSettings {
    samlSettings {
      enabled entityId signOnUrl certificate signOutUrl spCertificate autoCreate emailDomains defaultRootRole
      serviceProvider { entityId acsUrl metadataUrl loginUrl logoutCallbackUrl }
    }
  }
`);
const UpdateSamlMutation = graphql(`mutation AuthSamlUpdate($input: UpdateSamlSettingsInput!) { updateSamlSettings(input: $input) { enabled } }`);

/** The SAML settings (ADMIN only), read once: the form starts from them and typing must not be reset under the admin. */
export const useSamlSettings = (enabled: boolean) => useQuery({
  queryKey: integrationKeys.saml(), queryFn: () => gql(SamlQuery), enabled, staleTime: Infinity, refetchOnWindowFocus: false,
});

/** The SAML settings replaced; the login page's "Sign in with SSO" follows them. */
export const useUpdateSaml = () => useAppMutation({
  mutationFn: (input: UpdateSamlSettingsInput) => gql(UpdateSamlMutation, { input }),
  invalidates: [integrationKeys.saml(), sessionKeys.signInConfig()],
  done: 'SAML settings saved.',
});
