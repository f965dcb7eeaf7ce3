import { Button, Group, Loader, Modal, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { SecretField } from '../../components/SecretField';
import { graphql } from '../../gql';
import { expiryIn, hasPassed, shortDate, TOKEN_EXPIRY } from '../../logic/access';
import { accessKeys } from './queries';

const TokensQuery = graphql(`
  query AccessPersonalTokens {
    personalAccessTokens { id description expiresAt createdAt seenAt }
  }
`);

const CreateTokenMutation = graphql(`
  mutation AccessCreatePersonalToken($input: CreatePersonalAccessTokenInput!) {
    createPersonalAccessToken(input: $input) { id secret }
  }
`);

const DeleteTokenMutation = graphql(`
  mutation AccessDeletePersonalToken($input: IdInput!) {
    deletePersonalAccessToken(input: $input)
  }
`);

type Token = { id: number; description: string };

/** The signed-in user's personal access tokens: they act with the user's permissions, as an `Authorization` header. */
export function PersonalTokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: accessKeys.tokens, queryFn: () => gql(TokensQuery) });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Token | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => gql(DeleteTokenMutation, { input: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.tokens });
      setDeleting(null);
    },
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
        <Table verticalSpacing="xs" aria-label="Personal access tokens">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Description</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Last used</Table.Th><Table.Th>Created</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.personalAccessTokens.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>{t.description}</Table.Td>
                <Table.Td>{hasPassed(t.expiresAt) ? <Text size="sm" c="red.8">Expired {shortDate(t.expiresAt)}</Text> : shortDate(t.expiresAt)}</Table.Td>
                <Table.Td>{shortDate(t.seenAt)}</Table.Td>
                <Table.Td>{shortDate(t.createdAt)}</Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-sm" variant="light" color="red" aria-label={`Delete token ${t.description}`}
                    onClick={() => { remove.reset(); setDeleting(t); }}>Delete</Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ))}
      <NewTokenModal opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete token"
        message={`Whatever uses "${deleting?.description ?? ''}" is refused from now on.`}
        confirmLabel="Delete token"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </section>
  );
}

/** "New token": description and expiry; the secret is then shown once with "Copy". */
function NewTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [description, setDescription] = useState('');
  const [days, setDays] = useState('30');
  const create = useMutation({
    mutationFn: () => gql(CreateTokenMutation, {
      input: { description: description.trim(), expiresAt: expiryIn(TOKEN_EXPIRY.find((c) => c.value === days)?.days ?? 30) },
    }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.tokens }),
  });
  const close = () => { setDescription(''); setDays('30'); create.reset(); onClose(); };
  const secret = create.data?.createPersonalAccessToken.secret;
  return (
    <Modal opened={opened} onClose={close} title="New personal access token" centered size="lg">
      {secret ? (
        <Stack>
          <SecretField value={secret} />
          <Group justify="flex-end"><Button onClick={close}>Done</Button></Group>
        </Stack>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
          <Stack>
            <TextInput label="Description" required data-autofocus description="What the token is for, to recognise it later."
              value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
            <Select label="Expires in" allowDeselect={false} data={TOKEN_EXPIRY.map(({ value, label }) => ({ value, label }))} value={days}
              onChange={(v) => setDays(v ?? '30')} />
            <ErrorNotice error={create.error} title="No token was created" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending} disabled={!description.trim()}>Create token</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
