import { Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { TAG_TYPE_KEYS } from '../definitions/keys';
import { useConfirmDelete } from '../definitions/shared';
import { TagTypeForm, type TagTypeValues } from '../definitions/TagTypeForm';

const TagTypesQuery = graphql(`query DefinitionsTagTypes { tagTypes { name description } }`);
const DeleteTagType = graphql(`mutation DefinitionsDeleteTagType($input: TagTypeNameInput!) { deleteTagType(input: $input) }`);

/** `/admin/tag-types`: the kinds of tags flags can carry; create, edit the description and delete for those allowed. */
export default function TagTypesPage() {
  const tagTypes = useQuery({ queryKey: ['definitions', 'tagTypes'], queryFn: () => gql(TagTypesQuery) });
  const { can } = useAllowed();
  const [form, setForm] = useState<{ editing: TagTypeValues | null } | null>(null);
  const remove = useConfirmDelete<{ name: string }>({
    title: (t) => `Delete tag type ${t.name}?`,
    message: (t) => `Every tag of type ${t.name} is removed from the flags that carry it.`,
    run: (t) => gql(DeleteTagType, { input: { name: t.name } }),
    invalidate: TAG_TYPE_KEYS,
    done: (t) => `Tag type ${t.name} deleted.`,
  });
  const canEdit = can('UPDATE_TAG_TYPE');
  const canDelete = can('DELETE_TAG_TYPE');

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Tag types</Title>
        {can('CREATE_TAG_TYPE') && <Button onClick={() => setForm({ editing: null })}>New tag type</Button>}
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
                    {canDelete && <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${t.name}`} onClick={() => remove.ask(t)}>Delete</Button>}
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
