import { Badge, Button, Group, Loader, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { ContextFieldForm, type ContextFieldValues } from '../definitions/ContextFieldForm';
import { CONTEXT_FIELD_KEYS } from '../definitions/keys';
import { useConfirmDelete } from '../definitions/shared';

const ContextFieldsQuery = graphql(`
  query DefinitionsContextFields {
    contextFields { name description stickiness sortOrder usedInFeatures usedInProjects legalValues { value description } }
  }
`);
const DeleteContextField = graphql(`
  mutation DefinitionsDeleteContextField($input: ContextFieldNameInput!) { deleteContextField(input: $input) }
`);

/** How many legal values are shown in the list before "+ n more". */
const SHOWN_VALUES = 6;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * `/admin/context-fields`: the fields constraints and stickiness can use, with their legal values and where constraints
 * use them; create, edit and delete for those allowed.
 */
export default function ContextFieldsPage() {
  const fields = useQuery({ queryKey: ['definitions', 'contextFields'], queryFn: () => gql(ContextFieldsQuery) });
  const { can } = useAllowed();
  const [form, setForm] = useState<{ editing: ContextFieldValues | null } | null>(null);
  const remove = useConfirmDelete<{ name: string; usedInFeatures: number }>({
    title: (f) => `Delete ${f.name}?`,
    message: (f) => (f.usedInFeatures > 0
      ? `Constraints of ${plural(f.usedInFeatures, 'flag')} use ${f.name}; they keep it, but no picker will offer it any more.`
      : `No constraint uses ${f.name}.`),
    run: (f) => gql(DeleteContextField, { input: { name: f.name } }),
    invalidate: CONTEXT_FIELD_KEYS,
    done: (f) => `Context field ${f.name} deleted.`,
  });
  const list = [...(fields.data?.contextFields ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const canEdit = can('UPDATE_CONTEXT_FIELD');
  const canDelete = can('DELETE_CONTEXT_FIELD');

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Context fields</Title>
        {can('CREATE_CONTEXT_FIELD') && <Button onClick={() => setForm({ editing: null })}>New context field</Button>}
      </Group>
      <Text c="dimmed" size="sm" mb="md">The fields of the context SDKs evaluate flags with, which constraints and stickiness can use.</Text>
      <ErrorNotice error={fields.error} />
      {fields.isPending && <Loader aria-label="Loading context fields" />}
      {fields.data && (
        <Table verticalSpacing="sm" aria-label="Context fields">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Context field</Table.Th>
              <Table.Th>Legal values</Table.Th>
              <Table.Th>Stickiness</Table.Th>
              <Table.Th>Used in</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
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
                <Table.Td>
                  <Text size="sm">{f.usedInFeatures === 0 ? 'Unused' : `${plural(f.usedInFeatures, 'flag')} in ${plural(f.usedInProjects, 'project')}`}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {canEdit && <Button size="xs" variant="default" aria-label={`Edit ${f.name}`} onClick={() => setForm({ editing: f })}>Edit</Button>}
                    {canDelete && <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${f.name}`} onClick={() => remove.ask(f)}>Delete</Button>}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {form && <ContextFieldForm key={form.editing?.name ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
