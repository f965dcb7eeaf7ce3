import { ActionIcon, Badge, Button, Group, Loader, Switch, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { byOrder, moveUpdates } from '../../logic/definitions';
import { EnvironmentForm, type EnvironmentValues } from '../definitions/EnvironmentForm';
import { ENVIRONMENT_KEYS } from '../definitions/keys';
import { RowError, useConfirmDelete, useRowError } from '../definitions/shared';
import { notifyDone } from '../../components/notify';

const EnvironmentsQuery = graphql(`
  query DefinitionsEnvironments { environments { name type enabled protected sortOrder } }
`);
const EnableEnvironment = graphql(`
  mutation DefinitionsEnableEnvironment($input: EnvironmentNameInput!) { enableEnvironment(input: $input) { name enabled } }
`);
const DisableEnvironment = graphql(`
  mutation DefinitionsDisableEnvironment($input: EnvironmentNameInput!) { disableEnvironment(input: $input) { name enabled } }
`);
const MoveEnvironment = graphql(`
  mutation DefinitionsMoveEnvironment($input: UpdateEnvironmentInput!) { updateEnvironment(input: $input) { name sortOrder } }
`);
const DeleteEnvironment = graphql(`
  mutation DefinitionsDeleteEnvironment($input: EnvironmentNameInput!) { deleteEnvironment(input: $input) }
`);

const COLUMNS = 6;

/**
 * `/admin/environments`: every environment in the order projects show them, with its type, whether it is on and
 * whether the system made it; those with ADMIN create, edit the type, switch on and off, move and delete.
 */
export default function EnvironmentsPage() {
  const queryClient = useQueryClient();
  const environments = useQuery({ queryKey: ['definitions', 'environments'], queryFn: () => gql(EnvironmentsQuery) });
  const { can } = useAllowed();
  const admin = can('ADMIN');
  const [form, setForm] = useState<{ editing: EnvironmentValues | null } | null>(null);
  const rowError = useRowError<string>();
  const refresh = () => Promise.all(ENVIRONMENT_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  const list = byOrder(environments.data?.environments ?? []);
  const setEnabled = useMutation({
    mutationFn: async (v: { name: string; enabled: boolean }) => {
      if (v.enabled) await gql(EnableEnvironment, { input: { name: v.name } });
      else await gql(DisableEnvironment, { input: { name: v.name } });
    },
    onMutate: () => rowError.clear(),
    // The switch follows the answer at once, not after the list is read again.
    onSuccess: async (_r, v) => {
      queryClient.setQueryData<typeof environments.data>(['definitions', 'environments'], (d) =>
        d && { environments: d.environments.map((e) => (e.name === v.name ? { ...e, enabled: v.enabled } : e)) });
      await refresh();
    },
    onError: (error, v) => rowError.fail(v.name, error),
  });
  const move = useMutation({
    // One update per environment whose sort order changes (two, unless ties make the list renumber).
    mutationFn: async (v: { name: string; direction: -1 | 1 }) => {
      for (const u of moveUpdates(list, v.name, v.direction)) await gql(MoveEnvironment, { input: u });
    },
    onMutate: () => rowError.clear(),
    onSettled: refresh,
    // The moved row's buttons shift under the pointer: say that the order was saved.
    onSuccess: () => notifyDone('Order saved.', 1500),
    onError: (error, v) => rowError.fail(v.name, error),
  });
  const remove = useConfirmDelete<{ name: string; protected: boolean }>({
    title: (e) => `Delete ${e.name}?`,
    message: (e) => (
      <>
        Every flag's strategies, variants and switch in <strong>{e.name}</strong> are deleted with it, and the API tokens of
        it stop working.{e.protected && ' The system created this environment.'} Disabling it instead keeps all of that.
      </>
    ),
    run: (e) => gql(DeleteEnvironment, { input: { name: e.name } }),
    invalidate: ENVIRONMENT_KEYS,
    done: (e) => `Environment ${e.name} deleted.`,
  });
  const nextSortOrder = list.length === 0 ? 1 : Math.max(...list.map((e) => e.sortOrder)) + 1;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Environments</Title>
        {admin && <Button onClick={() => setForm({ editing: null })}>New environment</Button>}
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        Where flags are configured (each SDK reads one). A disabled environment is hidden from projects; its configuration is kept.
      </Text>
      <ErrorNotice error={environments.error} />
      {environments.isPending && <Loader aria-label="Loading environments" />}
      {environments.data && (
        <Table verticalSpacing="sm" aria-label="Environments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Order</Table.Th>
              <Table.Th>Environment</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Enabled</Table.Th>
              <Table.Th ta="right">Sort order</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((e, i) => (
              <Fragment key={e.name}>
                <Table.Tr>
                  <Table.Td>
                    {admin ? (
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={`Move ${e.name} up`}>
                          <ActionIcon variant="default" aria-label={`Move ${e.name} up`} disabled={i === 0 || move.isPending}
                            onClick={() => move.mutate({ name: e.name, direction: -1 })}><span aria-hidden>↑</span></ActionIcon>
                        </Tooltip>
                        <Tooltip label={`Move ${e.name} down`}>
                          <ActionIcon variant="default" aria-label={`Move ${e.name} down`} disabled={i === list.length - 1 || move.isPending}
                            onClick={() => move.mutate({ name: e.name, direction: 1 })}><span aria-hidden>↓</span></ActionIcon>
                        </Tooltip>
                      </Group>
                    ) : i + 1}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      <Text fw={500}>{e.name}</Text>
                      {e.protected && <Badge variant="default" tt="none">Protected</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>{e.type}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${e.name} enabled`}
                      checked={e.enabled}
                      disabled={!admin || (setEnabled.isPending && setEnabled.variables?.name === e.name)}
                      onChange={(ev) => setEnabled.mutate({ name: e.name, enabled: ev.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td ta="right">{e.sortOrder}</Table.Td>
                  <Table.Td>
                    {admin && (
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="default" aria-label={`Edit ${e.name}`}
                          onClick={() => setForm({ editing: { name: e.name, type: e.type, sortOrder: e.sortOrder } })}>Edit</Button>
                        <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${e.name}`} onClick={() => remove.ask(e)}>Delete</Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
                <RowError error={rowError.errorFor(e.name)} colSpan={COLUMNS} />
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {form && <EnvironmentForm key={form.editing?.name ?? 'new'} editing={form.editing} nextSortOrder={nextSortOrder} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
