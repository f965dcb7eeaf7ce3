import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { useDeleteStrategyType, useSetStrategyDeprecated, useStrategyTypeList, type StrategyType } from '../../data/definitions';
import { DefinitionsPage, RowActions, RowError, useFormOpen, useRowError } from '../definitions/shared';
import { StrategyForm, type StrategyValues } from '../definitions/StrategyForm';

const COLUMNS = 4;
/** Every flag can fall back to it, so the service never deprecates it: no button is offered. */
const DEFAULT_STRATEGY = 'default';

/**
 * `/admin/strategies`: the built-in strategy types and the custom ones with their parameters; those allowed create and
 * edit custom types, deprecate and reactivate any but `default`, and delete custom ones no flag uses.
 */
export default function StrategiesPage() {
  const form = useFormOpen<StrategyValues>();
  const rowError = useRowError<string>();
  const setDeprecated = useSetStrategyDeprecated();
  const deprecate = (v: { name: string; deprecated: boolean }) => {
    rowError.clear();
    setDeprecated.mutate(v, { onError: (error) => rowError.fail(v.name, error) });
  };
  const remove = useConfirm(useDeleteStrategyType<StrategyType>(), {
    title: (s) => `Delete strategy type ${s.name}?`,
    message: (s) => `Flags can no longer add ${s.name}. The service refuses while a flag's strategy uses it (deprecate it instead).`,
  });

  return (
    <>
      <DefinitionsPage
        noun="strategy type"
        intro={<>
          How a flag decides who gets it. Custom types need an implementation registered in each SDK; a deprecated type keeps
          working where it is used but is not offered for new strategies.
        </>}
        permissions="STRATEGY"
        query={useStrategyTypeList()}
        columns={['Strategy type', 'Parameters', 'State']}
        onCreate={form.create}
      >
        {(data, allowed) => data.strategies.map((s) => (
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
                <RowActions name={s.name} onEdit={allowed.edit && s.editable && (() => form.edit(s))} onDelete={allowed.delete && s.editable && (() => remove.ask(s))}>
                  {allowed.edit && s.name !== DEFAULT_STRATEGY && (
                    <Button size="xs" variant="default" aria-label={`${s.deprecated ? 'Reactivate' : 'Deprecate'} ${s.name}`}
                      loading={setDeprecated.isPending && setDeprecated.variables?.name === s.name}
                      onClick={() => deprecate({ name: s.name, deprecated: !s.deprecated })}>
                      {s.deprecated ? 'Reactivate' : 'Deprecate'}
                    </Button>
                  )}
                </RowActions>
              </Table.Td>
            </Table.Tr>
            <RowError error={rowError.errorFor(s.name)} colSpan={COLUMNS} />
          </Fragment>
        ))}
      </DefinitionsPage>
      {form.open && <StrategyForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
