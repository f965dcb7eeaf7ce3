import { Badge, Button, Code, Collapse, Group, Pagination, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Fragment, useId, useMemo, useState } from 'react';
import type { AdvancedRow } from '../../data/playground';
import type { PlaygroundResultFeatureFragment } from '../../gql/graphql';
import { Explanation, TONE } from './Explanation';
import { TableHead } from '../../components/TableHead';

const PAGE = 50;

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <Badge color={enabled ? TONE.green : TONE.gray} variant={enabled ? 'filled' : 'light'} tt="none">{enabled ? 'enabled' : 'disabled'}</Badge>;
}

/** A page of a long list and the control to move between pages (results can be thousands of rows). */
function usePaged<T>(items: T[]) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(items.length / PAGE));
  const current = Math.min(page, pages);
  const slice = items.slice((current - 1) * PAGE, current * PAGE);
  const control = pages > 1 ? (
    <Pagination total={pages} value={current} onChange={setPage} mt="sm" getControlProps={(c) => ({ 'aria-label': c === 'previous' ? 'Previous page' : c === 'next' ? 'Next page' : c })} />
  ) : null;
  return { slice, control, reset: () => setPage(1) };
}

/** One result row per flag (paged by 50), filterable by name, each with its explanation on demand. */
export function SimpleResults({ features, environment }: { features: PlaygroundResultFeatureFragment[]; environment: string }) {
  const [search, setSearch] = useState('');
  const matching = useMemo(() => features.filter((f) => f.name.toLowerCase().includes(search.trim().toLowerCase())), [features, search]);
  const paged = usePaged(matching);
  const enabled = features.filter((f) => f.isEnabled).length;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed" role="status">{features.length} flags in {environment}: {enabled} enabled, {features.length - enabled} disabled</Text>
        <TextInput label="Filter results" placeholder="Flag name" value={search} size="xs" w={220}
          onChange={(e) => { setSearch(e.currentTarget.value); paged.reset(); }} />
      </Group>
      <Stack gap={6} component="ul" aria-label="Results" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {paged.slice.map((f) => <ResultRow key={`${f.projectId}/${f.name}`} feature={f} environment={environment} />)}
      </Stack>
      {matching.length === 0 && <Text size="sm" c="dimmed">No flag to show.</Text>}
      {paged.control}
    </Stack>
  );
}

function ResultRow({ feature, environment }: { feature: PlaygroundResultFeatureFragment; environment: string }) {
  const [opened, { toggle }] = useDisclosure(false);
  const panel = useId();
  return (
    <Paper component="li" withBorder p="xs" radius="sm" data-flag={feature.name}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm">
          <Text fw={600}>{feature.name}</Text>
          <EnabledBadge enabled={feature.isEnabled} />
          <Text size="sm" c="dimmed">project {feature.projectId}</Text>
          <Text size="sm" c="dimmed">{feature.variant.enabled ? <>variant <Code>{feature.variant.name}</Code></> : 'no variant'}</Text>
        </Group>
        <Button variant="subtle" size="xs" onClick={toggle} aria-expanded={opened} aria-controls={panel} aria-label={`${opened ? 'Hide why' : 'Why'} ${opened ? '' : 'is '}${feature.name} ${opened ? 'is ' : ''}${feature.isEnabled ? 'enabled' : 'disabled'}${opened ? '' : '?'}`}>
          {opened ? 'Hide why' : 'Why?'}
        </Button>
      </Group>
      <Collapse in={opened} id={panel}>
        {opened && <Paper mt="xs" p="xs" bg="var(--mantine-color-gray-0)"><Explanation feature={feature} environment={environment} /></Paper>}
      </Collapse>
    </Paper>
  );
}

const contextText = (c: Record<string, unknown>) =>
  Object.entries(c).filter(([k]) => k !== 'appName' || Object.keys(c).length === 1).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');

/** The advanced answer as one table: flag × environment × context combination, each row's why on demand. */
export function AdvancedResults({ rows, environments }: { rows: AdvancedRow[]; environments: string[] }) {
  const paged = usePaged(rows);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const enabled = rows.filter((r) => r.evaluation.isEnabled).length;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" role="status">{rows.length} results over {environments.join(', ')}: {enabled} enabled, {rows.length - enabled} disabled</Text>
      <Table.ScrollContainer minWidth={700}>
        <Table striped withTableBorder aria-label="Advanced results">
          <TableHead columns={['Flag', 'Environment', 'Context', 'Result', 'Variant', { label: 'Explanation', hidden: true }]} />
          <Table.Tbody>
            {paged.slice.map((r, i) => {
              const key = rows.indexOf(r);
              const shown = open.has(key);
              return (
                <Fragment key={key}>
                  <Table.Tr data-flag={r.feature} data-environment={r.environment}>
                    <Table.Td><Text size="sm" fw={600}>{r.feature}</Text><Text size="xs" c="dimmed">{r.project}</Text></Table.Td>
                    <Table.Td>{r.environment}</Table.Td>
                    <Table.Td><Text size="sm">{contextText(r.context)}</Text></Table.Td>
                    <Table.Td><EnabledBadge enabled={r.evaluation.isEnabled} /></Table.Td>
                    <Table.Td>{r.evaluation.variant.enabled ? <Code>{r.evaluation.variant.name}</Code> : <Text size="sm" c="dimmed">none</Text>}</Table.Td>
                    <Table.Td>
                      <Button variant="subtle" size="xs" aria-expanded={shown} aria-label={`${shown ? 'Hide why' : 'Why'} ${r.feature} is ${r.evaluation.isEnabled ? 'enabled' : 'disabled'} in ${r.environment} for ${contextText(r.context)}`}
                        onClick={() => setOpen((prev) => {
                          const next = new Set(prev);
                          if (next.has(key)) next.delete(key);
                          else next.add(key);
                          return next;
                        })}>{shown ? 'Hide why' : 'Why?'}</Button>
                    </Table.Td>
                  </Table.Tr>
                  {shown && (
                    <Table.Tr key={`${i}-why`}>
                      <Table.Td colSpan={6}><Explanation feature={r.evaluation} environment={r.environment} /></Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {paged.control}
    </Stack>
  );
}
