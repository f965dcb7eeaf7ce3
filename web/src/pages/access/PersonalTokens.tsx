import { Button, Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { SecretField } from '../../components/SecretField';
import { useCreatePersonalToken, useDeletePersonalToken, usePersonalTokens } from '../../data/access';
import { expiryIn, hasPassed, shortDate, TOKEN_EXPIRY } from '../../logic/access';
import { AccessTable } from './AccessTable';
import { ExpirySelect } from './ExpirySelect';
import { RowActions } from './RowActions';
import { ShownOnceModal } from './ShownOnceModal';

/** The signed-in user's personal access tokens: they act with the user's permissions, as an `Authorization` header. */
export function PersonalTokens() {
  const tokens = usePersonalTokens();
  const [creating, setCreating] = useState(false);
  const remove = useConfirm(useDeletePersonalToken(), {
    title: () => 'Delete token',
    message: (t) => `Whatever uses "${t.description}" is refused from now on.`,
    confirmLabel: 'Delete token',
  });

  return (
    <section aria-labelledby="pat-title">
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3" id="pat-title">Personal access tokens</Title>
        <Button onClick={() => setCreating(true)}>New token</Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        A token acts as you, with your permissions, for scripts and tools: send it as the <code>Authorization</code> header of admin API requests.
      </Text>
      <ErrorNotice error={tokens.error} />
      {tokens.isPending && <Loader aria-label="Loading tokens" />}
      {tokens.data && (tokens.data.personalAccessTokens.length === 0 ? (
        <Text size="sm" c="dimmed">No tokens.</Text>
      ) : (
        <AccessTable label="Personal access tokens" columns={['Description', 'Expires', 'Last used', 'Created']} actions>
          {tokens.data.personalAccessTokens.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>{t.description}</Table.Td>
              <Table.Td>{hasPassed(t.expiresAt) ? <Text size="sm" c="red.8">Expired {shortDate(t.expiresAt)}</Text> : shortDate(t.expiresAt)}</Table.Td>
              <Table.Td>{shortDate(t.seenAt)}</Table.Td>
              <Table.Td>{shortDate(t.createdAt)}</Table.Td>
              <RowActions actions={[{ label: 'Delete', name: `Delete token ${t.description}`, onClick: () => remove.ask(t), danger: true }]} />
            </Table.Tr>
          ))}
        </AccessTable>
      ))}
      {creating && <NewTokenModal onClose={() => setCreating(false)} />}
      {remove.dialog}
    </section>
  );
}

/** "New token": description and expiry; the secret is then shown once with "Copy". Mounted while open. */
function NewTokenModal({ onClose }: { onClose: () => void }) {
  const create = useCreatePersonalToken();
  const form = useForm({
    initialValues: { description: '', days: '30' },
    validate: { description: (text) => (text.trim() ? null : 'Say what the token is for.') },
  });
  const secret = create.data?.createPersonalAccessToken.secret;
  if (secret) {
    return <ShownOnceModal title="New personal access token" onClose={onClose}><SecretField value={secret} /></ShownOnceModal>;
  }
  return (
    <FormModal title="New personal access token" errorTitle="No token was created" size="lg" form={form} mutation={create} submitLabel="Create token" onClose={onClose}
      onSubmit={(v) => create.mutate({ description: v.description.trim(), expiresAt: expiryIn(TOKEN_EXPIRY.find((c) => c.value === v.days)?.days ?? 30) })}>
      <TextInput label="Description" required data-autofocus description="What the token is for, to recognise it later." {...form.getInputProps('description')} />
      <ExpirySelect choices={TOKEN_EXPIRY} {...form.getInputProps('days')} />
    </FormModal>
  );
}
