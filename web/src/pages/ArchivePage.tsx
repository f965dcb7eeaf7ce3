import { Anchor, Button, Checkbox, Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { gql } from '../api/client';
import { allowedQuery } from '../data/session';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { relativeTime } from '../logic/flag-list';
import { byProject, shownState, stillListed, toggled, withShown } from '../logic/selection';
import { DataArchiveQuery, DataDeleteMutation, DataReviveMutation } from './data/queries';
import { notifyDone } from '../components/notify';
import { links } from '../routing/links';
import type { PermissionName } from '../gql/graphql';

/** Rows per page: the archive may hold thousands of flags, so it is read a page at a time. */
const PAGE = 100;

type Row = { name: string; project: string; type: string; description?: string | null; archivedAt?: string | null };
type Action = 'revive' | 'delete';

/**
 * `/archive`: archived flags of every project, searchable by name and read a page at a time. Each may be revived
 * (switched off everywhere) or deleted for good, one at a time or as a selection; deleting asks once more. A control
 * shows only where the service says the user may use it (per project).
 */
export default function ArchivePage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const archive = useInfiniteQuery({
    queryKey: ['archive', query],
    queryFn: ({ pageParam }) => gql(DataArchiveQuery, { first: PAGE, after: pageParam, filter: { archived: true, ...(query ? { query } : {}) } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.features.pageInfo.hasNextPage ? last.features.pageInfo.endCursor ?? null : null),
    // The rows stay while a new search loads: ticked boxes do not vanish under the pointer.
    placeholderData: keepPreviousData,
  });
  const rows: Row[] = useMemo(() => archive.data?.pages.flatMap((p) => p.features.nodes) ?? [], [archive.data]);
  const names = useMemo(() => rows.map((r) => r.name), [rows]);

  const projects = useMemo(() => [...new Set(rows.map((r) => r.project))], [rows]);
  const allowed = useQueries({ queries: projects.map((p) => allowedQuery(p)) });
  const may = (project: string, permission: PermissionName) => !!allowed[projects.indexOf(project)]?.data?.me.allowed.includes(permission);

  const [picked, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const selected = useMemo(() => stillListed(picked, names), [picked, names]);
  const state = shownState(names, selected);
  const [confirm, setConfirm] = useState<{ action: Action; rows: Row[] } | null>(null);

  const act = useMutation({
    mutationFn: async ({ action, rows: targets }: { action: Action; rows: Row[] }) => {
      // The service takes one project per call; each call is all or nothing for its project.
      for (const group of byProject(targets, new Set(targets.map((r) => r.name)))) {
        if (action === 'revive') await gql(DataReviveMutation, { input: group });
        else await gql(DataDeleteMutation, { input: group });
      }
    },
    onSuccess: (_r, { action, rows: targets }) => {
      notifyDone(`${action === 'revive' ? 'Revived' : 'Deleted'} ${targets.length === 1 ? targets[0].name : `${targets.length} flags`}.`);
      setConfirm(null);
      setSelected((s) => withShown(s, targets.map((r) => r.name), false));
    },
    // Part of a selection may have gone through before a refusal: read the archive again either way.
    onSettled: (_r, _e, { rows: targets }) => {
      void queryClient.invalidateQueries({ queryKey: ['archive'] });
      for (const p of new Set(targets.map((r) => r.project))) void queryClient.invalidateQueries({ queryKey: ['project-flags', p] });
      for (const r of targets) void queryClient.invalidateQueries({ queryKey: ['flag', r.name] });
    },
  });

  const selectedRows = rows.filter((r) => selected.has(r.name));
  const canAll = (permission: PermissionName) => selectedRows.length > 0 && selectedRows.every((r) => may(r.project, permission));
  const start = (action: Action, targets: Row[]) => {
    act.reset();
    if (action === 'delete') setConfirm({ action, rows: targets });
    else act.mutate({ action, rows: targets });
  };

  return (
    <>
      <Title order={1}>Archive</Title>
      <Text c="dimmed" size="sm" mb="sm">Archived flags of every project. SDKs no longer see them; reviving one brings it back switched off.</Text>
      <Group align="flex-end" gap="sm" mb="sm">
        <TextInput label="Search archived flags" placeholder="Name contains…" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={280} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {archive.isSuccess ? `${rows.length}${archive.hasNextPage ? '+' : ''} archived flag${rows.length === 1 ? '' : 's'}` : ''}
          {selected.size > 0 ? ` · ${selected.size} selected` : ''}
        </Text>
        <Group gap="xs" ml="auto">
          <Button variant="default" disabled={!canAll('UPDATE_FEATURE')} loading={act.isPending && act.variables?.action === 'revive' && act.variables.rows.length > 1}
            onClick={() => start('revive', selectedRows)}>
            Revive selected
          </Button>
          <Button color="red" variant="light" disabled={!canAll('DELETE_FEATURE')} onClick={() => start('delete', selectedRows)}>Delete selected</Button>
        </Group>
      </Group>
      {!confirm && <ErrorNotice error={act.error} />}
      <ErrorNotice error={archive.error} />
      {archive.isPending && <Loader aria-label="Loading the archive" />}
      {archive.isSuccess && rows.length === 0 && <Text c="dimmed">{query ? 'No archived flag matches this search.' : 'No archived flags.'}</Text>}
      {rows.length > 0 && (
        <Table highlightOnHover verticalSpacing="xs" aria-label="Archived flags">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={44}>
                <Checkbox aria-label="Select all shown" checked={state === 'all'} indeterminate={state === 'some'}
                  onChange={(e) => { const on = e.currentTarget.checked; setSelected((s) => withShown(s, names, on)); }} />
              </Table.Th>
              <Table.Th>Flag</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Archived</Table.Th>
              <Table.Th w={200}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.name}>
                <Table.Td>
                  <Checkbox aria-label={`Select ${r.name}`} checked={selected.has(r.name)} onChange={(e) => { const on = e.currentTarget.checked; setSelected((s) => toggled(s, r.name, on)); }} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={links.flag(r.project, r.name)} fw={500}>{r.name}</Anchor>
                  {r.description && <Text size="xs" c="dimmed" lineClamp={1}>{r.description}</Text>}
                </Table.Td>
                <Table.Td><Anchor component={Link} to={links.project(r.project)} size="sm">{r.project}</Anchor></Table.Td>
                <Table.Td><Text size="sm">{r.type}</Text></Table.Td>
                <Table.Td>
                  {r.archivedAt ? <Text size="sm"><time dateTime={r.archivedAt} title={new Date(r.archivedAt).toLocaleString()}>{relativeTime(r.archivedAt)}</time></Text> : '—'}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    {may(r.project, 'UPDATE_FEATURE') && (
                      <Button size="xs" variant="default" aria-label={`Revive ${r.name}`} onClick={() => start('revive', [r])}
                        loading={act.isPending && act.variables?.action === 'revive' && act.variables.rows.length === 1 && act.variables.rows[0].name === r.name}>
                        Revive
                      </Button>
                    )}
                    {may(r.project, 'DELETE_FEATURE') && (
                      <Button size="xs" color="red" variant="light" aria-label={`Delete ${r.name}`} onClick={() => start('delete', [r])}>Delete</Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {archive.hasNextPage && (
        <Button variant="default" mt="sm" loading={archive.isFetchingNextPage} onClick={() => void archive.fetchNextPage()}>Load more</Button>
      )}
      <ConfirmDialog opened={!!confirm} onClose={() => setConfirm(null)} pending={act.isPending} error={act.error}
        title={confirm?.rows.length === 1 ? `Delete ${confirm.rows[0].name}` : `Delete ${confirm?.rows.length ?? 0} flags`}
        message={confirm?.rows.length === 1
          ? `${confirm.rows[0].name} is deleted for good: its strategies, variants and tags go with it. This cannot be undone.`
          : `${confirm?.rows.map((r) => r.name).join(', ')} are deleted for good, with their strategies, variants and tags. This cannot be undone.`}
        confirmLabel="Delete for good" onConfirm={() => confirm && act.mutate(confirm)} />
    </>
  );
}
