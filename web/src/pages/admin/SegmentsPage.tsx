import { Button, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { operatorLabel, valueKind } from '../../logic/constraints';
import { SEGMENT_KEYS } from '../definitions/keys';
import { SegmentForm, type SegmentValues } from '../definitions/SegmentForm';
import { SegmentUsage } from '../definitions/SegmentUsage';
import { useConfirmDelete } from '../definitions/shared';

const SegmentsQuery = graphql(`
  query DefinitionsSegments {
    segments {
      id name description project usedInFeatures usedInProjects
      constraints { contextName operator values value caseInsensitive inverted }
    }
  }
`);
const DeleteSegment = graphql(`mutation DefinitionsDeleteSegment($input: SegmentIdInput!) { deleteSegment(input: $input) }`);

const COLUMNS = 5;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** One constraint as a line a person reads: `region is one of eu, us`. */
function constraintText(c: { contextName: string; operator: string; values: readonly string[]; value?: string | null; inverted: boolean }): string {
  const what = valueKind(c.operator) === 'list' ? c.values.join(', ') : c.value ?? '';
  return `${c.inverted ? 'not: ' : ''}${c.contextName} ${operatorLabel(c.operator)} ${what}`;
}

/**
 * `/admin/segments`: reusable sets of constraints, with where each is used (the flags, opened on demand); create and
 * edit with the shared constraint editor, and delete, which the service refuses while a strategy uses the segment.
 */
export default function SegmentsPage() {
  const segments = useQuery({ queryKey: ['definitions', 'segments'], queryFn: () => gql(SegmentsQuery) });
  const { can } = useAllowed();
  const [form, setForm] = useState<{ editing: SegmentValues | null } | null>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) => setOpen((s) => { const n = new Set(s); if (!n.delete(id)) n.add(id); return n; });
  const remove = useConfirmDelete<{ id: number; name: string; usedInFeatures: number }>({
    title: (s) => `Delete segment ${s.name}?`,
    message: (s) => (s.usedInFeatures > 0
      ? `Strategies of ${plural(s.usedInFeatures, 'flag')} use ${s.name}: remove it from them first.`
      : `No strategy uses ${s.name}.`),
    run: (s) => gql(DeleteSegment, { input: { id: s.id } }),
    invalidate: SEGMENT_KEYS,
    done: (s) => `Segment ${s.name} deleted.`,
  });
  const canEdit = can('UPDATE_SEGMENT');
  const canDelete = can('DELETE_SEGMENT');

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Segments</Title>
        {can('CREATE_SEGMENT') && <Button onClick={() => setForm({ editing: null })}>New segment</Button>}
      </Group>
      <Text c="dimmed" size="sm" mb="md">Named sets of constraints that strategies share: a change here applies to every strategy that uses one.</Text>
      <ErrorNotice error={segments.error} />
      {segments.isPending && <Loader aria-label="Loading segments" />}
      {segments.data && segments.data.segments.length === 0 && <Text>No segments yet.</Text>}
      {segments.data && segments.data.segments.length > 0 && (
        <Table verticalSpacing="sm" aria-label="Segments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Segment</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th>Constraints</Table.Th>
              <Table.Th>Used in</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {segments.data.segments.map((s) => (
              <Fragment key={s.id}>
                <Table.Tr>
                  <Table.Td>
                    <Text fw={500}>{s.name}</Text>
                    {s.description && <Text size="xs" c="dimmed">{s.description}</Text>}
                  </Table.Td>
                  <Table.Td>{s.project ?? <Text span size="sm" c="dimmed">Global</Text>}</Table.Td>
                  <Table.Td>
                    {s.constraints.length === 0 ? <Text size="sm" c="dimmed">None (matches every context)</Text> : (
                      <Stack gap={0}>
                        {s.constraints.map((c, i) => <Text key={i} size="sm" lineClamp={1}>{constraintText(c)}</Text>)}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {s.usedInFeatures === 0 ? <Text size="sm" c="dimmed">Unused</Text> : (
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm">{plural(s.usedInFeatures, 'flag')} in {plural(s.usedInProjects, 'project')}</Text>
                        <Button size="compact-xs" variant="subtle" aria-expanded={open.has(s.id)} onClick={() => toggle(s.id)}>
                          {open.has(s.id) ? 'Hide' : 'Show'}<VisuallyHidden> flags using {s.name}</VisuallyHidden>
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {canEdit && <Button size="xs" variant="default" aria-label={`Edit ${s.name}`} onClick={() => setForm({ editing: s })}>Edit</Button>}
                      {canDelete && <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${s.name}`} onClick={() => remove.ask(s)}>Delete</Button>}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                {open.has(s.id) && (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS}><SegmentUsage id={s.id} /></Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {form && <SegmentForm key={form.editing?.id ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
