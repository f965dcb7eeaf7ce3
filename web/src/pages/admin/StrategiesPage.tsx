import { Badge, Button, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { STRATEGY_KEYS } from '../definitions/keys';
import { RowError, useConfirmDelete, useRowError } from '../definitions/shared';
import { notifyDone } from '../../components/notify';
import { StrategyForm, type StrategyValues } from '../definitions/StrategyForm';

const StrategiesQuery = graphql(`
  query DefinitionsStrategies {
    strategies { name displayName title description editable deprecated parameters { name type description required } }
  }
`);
const DeprecateStrategy = graphql(`
  mutation DefinitionsDeprecateStrategy($input: DeprecateStrategyInput!) { deprecateStrategy(input: $input) { name deprecated } }
`);
const ReactivateStrategy = graphql(`
  mutation DefinitionsReactivateStrategy($input: ReactivateStrategyInput!) { reactivateStrategy(input: $input) { name deprecated } }
`);
const DeleteStrategy = graphql(`mutation DefinitionsDeleteStrategy($input: DeleteStrategyInput!) { deleteStrategy(input: $input) }`);

const COLUMNS = 4;
/** Every flag can fall back to it, so the service never deprecates it: no button is offered. */
const DEFAULT_STRATEGY = 'default';

/**
 * `/admin/strategies`: the built-in strategy types and the custom ones with their parameters; those allowed create and
 * edit custom types, deprecate and reactivate any but `default`, and delete custom ones no flag uses.
 */
export default function StrategiesPage() {
  const queryClient = useQueryClient();
  const strategies = useQuery({ queryKey: ['definitions', 'strategies'], queryFn: () => gql(StrategiesQuery) });
  const { can } = useAllowed();
  const [form, setForm] = useState<{ editing: StrategyValues | null } | null>(null);
  const rowError = useRowError<string>();
  const setDeprecated = useMutation({
    mutationFn: async (v: { name: string; deprecated: boolean }) => {
      if (v.deprecated) await gql(DeprecateStrategy, { input: { name: v.name } });
      else await gql(ReactivateStrategy, { input: { name: v.name } });
    },
    onMutate: () => rowError.clear(),
    onSuccess: async (_r, v) => {
      await Promise.all(STRATEGY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      notifyDone(`${v.name} ${v.deprecated ? 'deprecated' : 'reactivated'}.`);
    },
    onError: (error, v) => rowError.fail(v.name, error),
  });
  const remove = useConfirmDelete<{ name: string }>({
    title: (s) => `Delete strategy type ${s.name}?`,
    message: (s) => `Flags can no longer add ${s.name}. The service refuses while a flag's strategy uses it (deprecate it instead).`,
    run: (s) => gql(DeleteStrategy, { input: { name: s.name } }),
    invalidate: STRATEGY_KEYS,
    done: (s) => `Strategy type ${s.name} deleted.`,
  });
  const canUpdate = can('UPDATE_STRATEGY');
  const canDelete = can('DELETE_STRATEGY');
  const list = strategies.data?.strategies ?? [];

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Strategy types</Title>
        {can('CREATE_STRATEGY') && <Button onClick={() => setForm({ editing: null })}>New strategy type</Button>}
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        How a flag decides who gets it. Custom types need an implementation registered in each SDK; a deprecated type keeps
        working where it is used but is not offered for new strategies.
      </Text>
      <ErrorNotice error={strategies.error} />
      {strategies.isPending && <Loader aria-label="Loading strategy types" />}
      {strategies.data && (
        <Table verticalSpacing="sm" aria-label="Strategy types">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Strategy type</Table.Th>
              <Table.Th>Parameters</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((s) => (
              <Fragment key={s.name}>
                <Table.Tr>
                  <Table.Td>
                    <Text fw={500}>{s.displayName || s.title || s.name}</Text>
                    <Text size="xs" c="dimmed">{s.displayName || s.title ? `${s.name} · ` : ''}{s.description}</Text>
                  </Table.Td>
                  <Table.Td>
                    {s.parameters.length === 0 ? <Text size="sm" c="dimmed">None</Text> : (
                      <Stack gap={0}>
                        {s.parameters.map((p) => (
                          <Text key={p.name} size="sm" style={{ whiteSpace: 'nowrap' }}>
                            <code>{p.name}</code> · {p.type}{p.required ? ' · required' : ''}
                          </Text>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge variant="default" tt="none">{s.editable ? 'Custom' : 'Built in'}</Badge>
                      {s.deprecated && <Badge variant="dot" color="orange" tt="none">Deprecated</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {canUpdate && s.editable && (
                        <Button size="xs" variant="default" aria-label={`Edit ${s.name}`} onClick={() => setForm({ editing: s })}>Edit</Button>
                      )}
                      {canUpdate && s.name !== DEFAULT_STRATEGY && (
                        <Button size="xs" variant="default" aria-label={`${s.deprecated ? 'Reactivate' : 'Deprecate'} ${s.name}`}
                          loading={setDeprecated.isPending && setDeprecated.variables?.name === s.name}
                          onClick={() => setDeprecated.mutate({ name: s.name, deprecated: !s.deprecated })}>
                          {s.deprecated ? 'Reactivate' : 'Deprecate'}
                        </Button>
                      )}
                      {canDelete && s.editable && (
                        <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${s.name}`} onClick={() => remove.ask(s)}>Delete</Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                <RowError error={rowError.errorFor(s.name)} colSpan={COLUMNS} />
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {form && <StrategyForm key={form.editing?.name ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
