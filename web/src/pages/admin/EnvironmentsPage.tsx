import { ActionIcon, Badge, Group, Switch, Table, Text, Tooltip } from '@mantine/core';
import { Fragment } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { useDeleteEnvironment, useEnvironments, useMoveEnvironment, useSetEnvironmentEnabled, type Environment } from '../../data/definitions';
import { byOrder } from '../../logic/definitions';
import { EnvironmentForm, type EnvironmentValues } from '../definitions/EnvironmentForm';
import { DefinitionsPage, RowActions, RowError, useFormOpen, useRowError } from '../definitions/shared';

const COLUMNS = 6;
const MOVES = [{ direction: -1, label: 'up', arrow: '↑' }, { direction: 1, label: 'down', arrow: '↓' }] as const;

/**
 * `/admin/environments`: every environment in the order projects show them, with its type, whether it is on and
 * whether the system made it; those with ADMIN create, edit the type, switch on and off, move and delete.
 */
export default function EnvironmentsPage() {
  const environments = useEnvironments();
  const form = useFormOpen<EnvironmentValues>();
  const rowError = useRowError<string>();
  const list = byOrder(environments.data?.environments ?? []);
  const setEnabled = useSetEnvironmentEnabled();
  const move = useMoveEnvironment();
  // A refusal shows under the row it is about; the next action clears it.
  const onRow = (name: string) => { rowError.clear(); return { onError: (error: Error) => rowError.fail(name, error) }; };
  const remove = useConfirm(useDeleteEnvironment<Environment>(), {
    title: (e) => `Delete ${e.name}?`,
    message: (e) => (
      <>
        Every flag's strategies, variants and switch in <strong>{e.name}</strong> are deleted with it, and the API tokens of
        it stop working.{e.protected && ' The system created this environment.'} Disabling it instead keeps all of that.
      </>
    ),
  });
  const nextSortOrder = list.length === 0 ? 1 : Math.max(...list.map((e) => e.sortOrder)) + 1;

  return (
    <>
      <DefinitionsPage
        noun="environment"
        intro="Where flags are configured (each SDK reads one). A disabled environment is hidden from projects; its configuration is kept."
        permissions="ADMIN"
        query={environments}
        columns={['Order', 'Environment', 'Type', 'Enabled', { label: 'Sort order', ta: 'right' }]}
        onCreate={form.create}
      >
        {(_data, { edit: admin }) => list.map((e, i) => (
          <Fragment key={e.name}>
            <Table.Tr>
              <Table.Td>
                {admin ? (
                  <Group gap={4} wrap="nowrap">
                    {MOVES.map((m) => (
                      <Tooltip key={m.label} label={`Move ${e.name} ${m.label}`}>
                        <ActionIcon variant="default" aria-label={`Move ${e.name} ${m.label}`}
                          disabled={(m.direction < 0 ? i === 0 : i === list.length - 1) || move.isPending}
                          onClick={() => move.mutate({ list, name: e.name, direction: m.direction }, onRow(e.name))}><span aria-hidden>{m.arrow}</span></ActionIcon>
                      </Tooltip>
                    ))}
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
                  onChange={(ev) => setEnabled.mutate({ name: e.name, enabled: ev.currentTarget.checked }, onRow(e.name))}
                />
              </Table.Td>
              <Table.Td ta="right">{e.sortOrder}</Table.Td>
              <Table.Td>
                {admin && (
                  <RowActions name={e.name} onEdit={() => form.edit({ name: e.name, type: e.type, sortOrder: e.sortOrder })} onDelete={() => remove.ask(e)} />
                )}
              </Table.Td>
            </Table.Tr>
            <RowError error={rowError.errorFor(e.name)} colSpan={COLUMNS} />
          </Fragment>
        ))}
      </DefinitionsPage>
      {form.open && <EnvironmentForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} nextSortOrder={nextSortOrder} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
