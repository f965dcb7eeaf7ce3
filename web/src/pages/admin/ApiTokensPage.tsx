import { Button, Group, Loader, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { creatableTokenTypes } from '../../logic/token-form';
import { NewTokenModal } from '../integrations/NewTokenModal';
import { TokenExpiryModal } from '../integrations/TokenExpiryModal';
import { TokenTable, type TokenRow } from '../integrations/TokenTable';
import { notifyDone } from '../../components/notify';

const TokensQuery = graphql(`
  query ApiTokensList {
    apiTokens { id tokenName type projects environment createdAt seenAt expiresAt }
  }
`);

const RevokeTokenMutation = graphql(`
  mutation ApiTokensRevoke($input: ApiTokenRefInput!) {
    deleteApiToken(input: $input)
  }
`);

/**
 * `/admin/api-tokens`: the API tokens the user may read; "New API token" offering the types the user may create, the
 * secret shown once with where it goes; expiry edits and revocation where the service allows them.
 */
export default function ApiTokensPage() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['api-tokens'], queryFn: () => gql(TokensQuery) });
  const { can, loading } = useAllowed();
  const types = creatableTokenTypes(can);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TokenRow | null>(null);
  const [revoking, setRevoking] = useState<TokenRow | null>(null);
  const revoke = useMutation({
    mutationFn: (t: TokenRow) => gql(RevokeTokenMutation, { input: { token: String(t.id) } }),
    onSuccess: async (_r, t) => {
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
      notifyDone(`${t.tokenName} was revoked: SDKs using it are refused from now on.`);
      setRevoking(null);
    },
  });
  // The address this page is reached at: the one SDKs are given too, in the usage note.
  const origin = window.location.origin;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>API tokens</Title>
        {types.length > 0 && <Button onClick={() => setCreating(true)}>New API token</Button>}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Client tokens are for server-side SDKs, frontend tokens for browser and mobile SDKs, admin tokens for scripts that
        use the admin API. A token's secret is shown once, when it is created.
      </Text>
      {!loading && types.length === 0 && <Text size="sm" mb="md">You may not create API tokens: ask an admin.</Text>}
      <ErrorNotice error={tokens.error} />
      {tokens.isPending && <Loader aria-label="Loading API tokens" />}
      {tokens.data && (
        <TokenTable tokens={tokens.data.apiTokens} can={can} onEditExpiry={setEditing} onRevoke={(t) => { revoke.reset(); setRevoking(t); }} />
      )}
      {types.length > 0 && <NewTokenModal opened={creating} onClose={() => setCreating(false)} types={types} origin={origin} />}
      <TokenExpiryModal token={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog opened={revoking !== null} title="Revoke API token" confirmLabel="Revoke"
        message={<>Revoke <strong>{revoking?.tokenName}</strong>? Every SDK or script using it is refused within a second. This cannot be undone.</>}
        pending={revoke.isPending} error={revoke.error} onConfirm={() => revoking && revoke.mutate(revoking)} onClose={() => setRevoking(null)} />
    </>
  );
}
