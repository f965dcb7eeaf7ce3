import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { useConfirm } from '../../components/ConfirmDialog';
import { useContextFieldList, useDeleteContextField, type ContextField } from '../../data/definitions';
import { useAllowed } from '../../data/session';
import { plural, usedInText } from '../../logic/definitions';
import { ContextFieldForm, type ContextFieldValues } from '../definitions/ContextFieldForm';
import { DefinitionsPage, DefinitionsTable, RowActions, useFormOpen } from '../definitions/shared';

/** How many legal values are shown in the list before "+ n more". */
const SHOWN_VALUES = 6;

/**
 * `/admin/context-fields`: the fields constraints and stickiness can use, with their legal values and where constraints
 * use them; create, edit and delete for those allowed.
 */
export default function ContextFieldsPage() {
  const fields = useContextFieldList();
  const { can } = useAllowed();
  const form = useFormOpen<ContextFieldValues>();
  const remove = useConfirm(useDeleteContextField<ContextField>(), {
    title: (f) => `Delete ${f.name}?`,
    message: (f) => (f.usedInFeatures > 0
      ? `Constraints of ${plural(f.usedInFeatures, 'flag')} use ${f.name}; they keep it, but no picker will offer it any more.`
      : `No constraint uses ${f.name}.`),
  });
  const list = [...(fields.data?.contextFields ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const canEdit = can('UPDATE_CONTEXT_FIELD');
  const canDelete = can('DELETE_CONTEXT_FIELD');

  return (
    <>
      <DefinitionsPage
        title="Context fields"
        intro="The fields of the context SDKs evaluate flags with, which constraints and stickiness can use."
        create={{ label: 'New context field', permission: 'CREATE_CONTEXT_FIELD', onClick: form.create }}
        query={fields}
        loadingLabel="Loading context fields"
      >
        {() => (
          <DefinitionsTable label="Context fields" columns={['Context field', 'Legal values', 'Stickiness', 'Used in']}>
            {list.map((f) => (
              <Table.Tr key={f.name}>
                <Table.Td>
                  <Text fw={500}>{f.name}</Text>
                  {f.description && <Text size="xs" c="dimmed">{f.description}</Text>}
                </Table.Td>
                <Table.Td>
                  {f.legalValues.length === 0 ? <Text size="sm" c="dimmed">Any value</Text> : (
                    <Group gap={4}>
                      {f.legalValues.slice(0, SHOWN_VALUES).map((v) => (
                        <Tooltip key={v.value} label={v.description} disabled={!v.description}>
                          <Badge variant="default" tt="none">{v.value}</Badge>
                        </Tooltip>
                      ))}
                      {f.legalValues.length > SHOWN_VALUES && <Text size="xs">+ {f.legalValues.length - SHOWN_VALUES} more</Text>}
                    </Group>
                  )}
                </Table.Td>
                <Table.Td>{f.stickiness ? 'Yes' : 'No'}</Table.Td>
                <Table.Td><Text size="sm">{f.usedInFeatures === 0 ? 'Unused' : usedInText(f)}</Text></Table.Td>
                <Table.Td>
                  <RowActions name={f.name} onEdit={canEdit && (() => form.edit(f))} onDelete={canDelete && (() => remove.ask(f))} />
                </Table.Td>
              </Table.Tr>
            ))}
          </DefinitionsTable>
        )}
      </DefinitionsPage>
      {form.open && <ContextFieldForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
