import { Button, Group, Loader, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useApiTokens, useRevokeApiToken } from '../../data/integrations';
import { useAllowed } from '../../data/session';
import { creatableTokenTypes } from '../../logic/token-form';
import { NewTokenModal } from '../integrations/NewTokenModal';
import { TokenExpiryModal } from '../integrations/TokenExpiryModal';
import { TokenTable, type TokenRow } from '../integrations/TokenTable';

/**
 * `/admin/api-tokens`: the API tokens the user may read; "New API token" offering the types the user may create, the
 * secret shown once with where it goes; expiry edits and revocation where the service allows them.
 */
export default function ApiTokensPage() {
  const tokens = useApiTokens();
  const { can, loading } = useAllowed();
  const types = creatableTokenTypes(can);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TokenRow | null>(null);
  const revoke = useConfirm(useRevokeApiToken(), {
    title: () => 'Revoke API token',
    message: (t) => <>Revoke <strong>{t.tokenName}</strong>? Every SDK or script using it is refused within a second. This cannot be undone.</>,
    confirmLabel: 'Revoke',
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
      {tokens.data && <TokenTable tokens={tokens.data.apiTokens} onEditExpiry={setEditing} onRevoke={revoke.ask} />}
      {creating && types.length > 0 && <NewTokenModal onClose={() => setCreating(false)} types={types} origin={origin} />}
      {editing && <TokenExpiryModal key={editing.id} token={editing} onClose={() => setEditing(null)} />}
      {revoke.dialog}
    </>
  );
}
