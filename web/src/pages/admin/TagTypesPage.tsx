import { Table, Text } from '@mantine/core';
import { useConfirm } from '../../components/ConfirmDialog';
import { useDeleteTagType, useTagTypes } from '../../data/definitions';
import { DefinitionsPage, RowActions, useFormOpen } from '../definitions/shared';
import { TagTypeForm, type TagTypeValues } from '../definitions/TagTypeForm';

/** `/admin/tag-types`: the kinds of tags flags can carry; create, edit the description and delete for those allowed. */
export default function TagTypesPage() {
  const form = useFormOpen<TagTypeValues>();
  const remove = useConfirm(useDeleteTagType(), {
    title: (name) => `Delete tag type ${name}?`,
    message: (name) => `Every tag of type ${name} is removed from the flags that carry it.`,
  });

  return (
    <>
      <DefinitionsPage
        noun="tag type"
        intro="Every tag on a flag has a type and a value (type:value); addons can act on some types."
        permissions="TAG_TYPE"
        query={useTagTypes()}
        columns={['Tag type', 'Description']}
        onCreate={form.create}
      >
        {(data, allowed) => data.tagTypes.map((t) => (
          <Table.Tr key={t.name}>
            <Table.Td><Text fw={500}>{t.name}</Text></Table.Td>
            <Table.Td>{t.description || <Text span size="sm" c="dimmed">No description</Text>}</Table.Td>
            <Table.Td>
              <RowActions name={t.name} onEdit={allowed.edit && (() => form.edit(t))} onDelete={allowed.delete && (() => remove.ask(t.name))} />
            </Table.Td>
          </Table.Tr>
        ))}
      </DefinitionsPage>
      {form.open && <TagTypeForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
