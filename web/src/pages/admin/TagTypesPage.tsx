import { Table, Text } from '@mantine/core';
import { useConfirm } from '../../components/ConfirmDialog';
import { useDeleteTagType, useTagTypes } from '../../data/definitions';
import { useAllowed } from '../../data/session';
import { DefinitionsPage, DefinitionsTable, RowActions, useFormOpen } from '../definitions/shared';
import { TagTypeForm, type TagTypeValues } from '../definitions/TagTypeForm';

/** `/admin/tag-types`: the kinds of tags flags can carry; create, edit the description and delete for those allowed. */
export default function TagTypesPage() {
  const tagTypes = useTagTypes();
  const { can } = useAllowed();
  const form = useFormOpen<TagTypeValues>();
  const remove = useConfirm(useDeleteTagType(), {
    title: (name) => `Delete tag type ${name}?`,
    message: (name) => `Every tag of type ${name} is removed from the flags that carry it.`,
  });
  const canEdit = can('UPDATE_TAG_TYPE');
  const canDelete = can('DELETE_TAG_TYPE');

  return (
    <>
      <DefinitionsPage
        title="Tag types"
        intro="Every tag on a flag has a type and a value (type:value); addons can act on some types."
        create={{ label: 'New tag type', permission: 'CREATE_TAG_TYPE', onClick: form.create }}
        query={tagTypes}
        loadingLabel="Loading tag types"
      >
        {(data) => (
          <DefinitionsTable label="Tag types" columns={['Tag type', 'Description']}>
            {data.tagTypes.map((t) => (
              <Table.Tr key={t.name}>
                <Table.Td><Text fw={500}>{t.name}</Text></Table.Td>
                <Table.Td>{t.description || <Text span size="sm" c="dimmed">No description</Text>}</Table.Td>
                <Table.Td>
                  <RowActions name={t.name} onEdit={canEdit && (() => form.edit(t))} onDelete={canDelete && (() => remove.ask(t.name))} />
                </Table.Td>
              </Table.Tr>
            ))}
          </DefinitionsTable>
        )}
      </DefinitionsPage>
      {form.open && <TagTypeForm key={form.open.editing?.name ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
