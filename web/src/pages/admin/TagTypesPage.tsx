import { Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useDeleteTagType, useTagTypes } from '../../data/definitions';
import { useAllowed } from '../../data/session';
import { TagTypeForm, type TagTypeValues } from '../definitions/TagTypeForm';

/** `/admin/tag-types`: the kinds of tags flags can carry; create, edit the description and delete for those allowed. */
export default function TagTypesPage() {
  const tagTypes = useTagTypes();
  const { can } = useAllowed();
  const [form, setForm] = useState<{ editing: TagTypeValues | null } | null>(null);
  const remove = useConfirm(useDeleteTagType(), {
    title: (name) => `Delete tag type ${name}?`,
    message: (name) => `Every tag of type ${name} is removed from the flags that carry it.`,
  });
  const canEdit = can('UPDATE_TAG_TYPE');
  const canDelete = can('DELETE_TAG_TYPE');

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Tag types</Title>
        <Can permission="CREATE_TAG_TYPE"><Button onClick={() => setForm({ editing: null })}>New tag type</Button></Can>
      </Group>
      <Text c="dimmed" size="sm" mb="md">Every tag on a flag has a type and a value (type:value); addons can act on some types.</Text>
      <ErrorNotice error={tagTypes.error} />
      {tagTypes.isPending && <Loader aria-label="Loading tag types" />}
      {tagTypes.data && (
        <Table verticalSpacing="sm" aria-label="Tag types">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Tag type</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tagTypes.data.tagTypes.map((t) => (
              <Table.Tr key={t.name}>
                <Table.Td><Text fw={500}>{t.name}</Text></Table.Td>
                <Table.Td>{t.description || <Text span size="sm" c="dimmed">No description</Text>}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {canEdit && <Button size="xs" variant="default" aria-label={`Edit ${t.name}`} onClick={() => setForm({ editing: t })}>Edit</Button>}
                    {canDelete && <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${t.name}`} onClick={() => remove.ask(t.name)}>Delete</Button>}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {form && <TagTypeForm key={form.editing?.name ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
