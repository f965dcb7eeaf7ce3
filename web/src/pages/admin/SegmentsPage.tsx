import { Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { useDeleteSegment, useSegmentList, type Segment } from '../../data/definitions';
import { operatorLabel, valueKind } from '../../logic/constraints';
import { plural, usedInText } from '../../logic/definitions';
import { SegmentForm, type SegmentValues } from '../definitions/SegmentForm';
import { SegmentUsage } from '../definitions/SegmentUsage';
import { DefinitionsPage, RowActions, useFormOpen } from '../definitions/shared';

const COLUMNS = 5;

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
  const form = useFormOpen<SegmentValues>();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) => setOpen((s) => { const n = new Set(s); if (!n.delete(id)) n.add(id); return n; });
  const remove = useConfirm(useDeleteSegment<Segment>(), {
    title: (s) => `Delete segment ${s.name}?`,
    message: (s) => (s.usedInFeatures > 0
      ? `Strategies of ${plural(s.usedInFeatures, 'flag')} use ${s.name}: remove it from them first.`
      : `No strategy uses ${s.name}.`),
  });

  return (
    <>
      <DefinitionsPage
        noun="segment"
        intro="Named sets of constraints that strategies share: a change here applies to every strategy that uses one."
        permissions="SEGMENT"
        query={useSegmentList()}
        columns={['Segment', 'Project', 'Constraints', 'Used in']}
        empty="No segments yet."
        onCreate={form.create}
      >
        {(data, allowed) => data.segments.map((s) => (
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
                    <Text size="sm">{usedInText(s)}</Text>
                    <Button size="compact-xs" variant="subtle" aria-expanded={open.has(s.id)} onClick={() => toggle(s.id)}>
                      {open.has(s.id) ? 'Hide' : 'Show'}<VisuallyHidden> flags using {s.name}</VisuallyHidden>
                    </Button>
                  </Group>
                )}
              </Table.Td>
              <Table.Td>
                <RowActions name={s.name} onEdit={allowed.edit && (() => form.edit(s))} onDelete={allowed.delete && (() => remove.ask(s))} />
              </Table.Td>
            </Table.Tr>
            {open.has(s.id) && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS}><SegmentUsage id={s.id} /></Table.Td>
              </Table.Tr>
            )}
          </Fragment>
        ))}
      </DefinitionsPage>
      {form.open && <SegmentForm key={form.open.editing?.id ?? 'new'} editing={form.open.editing} onClose={form.close} />}
      {remove.dialog}
    </>
  );
}
