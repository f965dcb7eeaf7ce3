import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { useConfirm } from '../../components/ConfirmDialog';
import { useContextFieldList, useDeleteContextField, type ContextField } from '../../data/definitions';
import { plural, usedInText } from '../../logic/definitions';
import { ContextFieldForm, type ContextFieldValues } from '../definitions/ContextFieldForm';
import { DefinitionsPage, RowActions, useFormOpen } from '../definitions/shared';

/** How many legal values are shown in the list before "+ n more". */
const SHOWN_VALUES = 6;

/** The legal values a row shows: the first few (each with its description on hover), then how many more. */
function LegalValues({ values }: { values: ContextField['legalValues'] }) {
  if (values.length === 0) return <Text size="sm" c="dimmed">Any value</Text>;
  return (
    <Group gap={4}>
      {values.slice(0, SHOWN_VALUES).map((v) => (
        <Tooltip key={v.value} label={v.description} disabled={!v.description}>
          <Badge variant="default" tt="none">{v.value}</Badge>
        </Tooltip>
      ))}
      {values.length > SHOWN_VALUES && <Text size="xs">+ {values.length - SHOWN_VALUES} more</Text>}
    </Group>
  );
}

/**
 * `/admin/context-fields`: the fields constraints and stickiness can use, with their legal values and where constraints
 * use them; create, edit and delete for those allowed.
 */
export default function ContextFieldsPage() {
  const form = useFormOpen<ContextFieldValues>();
  const remove = useConfirm(useDeleteContextField<ContextField>(), {
    title: (f) => `Delete ${f.name}?`,
    message: (f) => (f.usedInFeatures > 0
      ? `Constraints of ${plural(f.usedInFeatures, 'flag')} use ${f.name}; they keep it, but no picker will offer it any more.`
      : `No constraint uses ${f.name}.`),
  });

  return (
    <>
      <DefinitionsPage
        noun="context field"
        intro="The fields of the context SDKs evaluate flags with, which constraints and stickiness can use."
        permissions="CONTEXT_FIELD"
        query={useContextFieldList()}
        columns={['Context field', 'Legal values', 'Stickiness', 'Used in']}
        onCreate={form.create}
      >
        {(data, allowed) => [...data.contextFields].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name)).map((f) => (
          <Table.Tr key={f.name}>
            <Table.Td>
              <Text fw={500}>{f.name}</Text>
              {f.description && <Text size="xs" c="dimmed">{f.description}</Text>}
            </Table.Td>
            <Table.Td><LegalValues values={f.legalValues} /></Table.Td>
            <Table.Td>{f.stickiness ? 'Yes' : 'No'}</Table.Td>
            <Table.Td><Text size="sm">{f.usedInFeatures === 0 ? 'Unused' : usedInText(f)}</Text></Table.Td>
            <Table.Td>
              <RowActions name={f.name} onEdit={allowed.edit && (() => form.edit(f))} onDelete={allowed.delete && (() => remove.ask(f))} />
            </Table.Td>
          </Table.Tr>
        ))}
      </DefinitionsPage>
      {form.open && <ContextFieldForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
