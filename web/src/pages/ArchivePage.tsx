import { Anchor, Button, Checkbox, Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Can } from '../components/Can';
import { useConfirm } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { useArchive, useDeleteFlags, useProjectPermissions, useReviveFlags } from '../data/data';
import type { PermissionName } from '../gql/graphql';
import { shownState, stillListed, toggled, withShown } from '../logic/selection';
import { links } from '../routing/links';
import { useUrlState } from '../routing/useUrlState';
import { When } from './data/When';

type Row = { name: string; project: string; type: string; description?: string | null; archivedAt?: string | null };

/**
 * `/archive`: archived flags of every project, searchable by name and read a page at a time. Each may be revived
 * (switched off everywhere) or deleted for good, one at a time or as a selection; deleting asks once more. A control
 * shows only where the service says the user may use it (per project).
 */
export default function ArchivePage() {
  // The search is kept in the address (`?q=`), which follows the box once typing pauses.
  const [{ q }, setUrl] = useUrlState(['q']);
  const [search, setSearch] = useState(q ?? '');
  const [typed] = useDebouncedValue(search.trim(), 250);
  useEffect(() => { setUrl({ q: typed || null }); }, [typed]); // eslint-disable-line react-hooks/exhaustive-deps
  const query = q ?? '';
  const archive = useArchive(query);
  const rows: Row[] = useMemo(() => archive.data?.pages.flatMap((p) => p.features.nodes) ?? [], [archive.data]);
  const names = useMemo(() => rows.map((r) => r.name), [rows]);
  // The bulk buttons need every selected row's project to allow the change (a row's own buttons ask <Can>).
  const may = useProjectPermissions(useMemo(() => [...new Set(rows.map((r) => r.project))], [rows]));

  const [picked, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const selected = useMemo(() => stillListed(picked, names), [picked, names]);
  const state = shownState(names, selected);
  const unselect = (done: Row[]) => setSelected((s) => withShown(s, done.map((r) => r.name), false));
  const revive = useReviveFlags(unselect);
  const remove = useConfirm(useDeleteFlags(unselect), {
    title: (targets: Row[]) => (targets.length === 1 ? `Delete ${targets[0].name}` : `Delete ${targets.length} flags`),
    message: (targets) => (targets.length === 1
      ? `${targets[0].name} is deleted for good: its strategies, variants and tags go with it. This cannot be undone.`
      : `${targets.map((r) => r.name).join(', ')} are deleted for good, with their strategies, variants and tags. This cannot be undone.`),
    confirmLabel: 'Delete for good',
  });

  const selectedRows = rows.filter((r) => selected.has(r.name));
  const canAll = (permission: PermissionName) => selectedRows.length > 0 && selectedRows.every((r) => may(r.project, permission));
  const reviving = (targets: 'one' | 'many', name?: string) => revive.isPending && !!revive.variables
    && (targets === 'many' ? revive.variables.length > 1 : revive.variables.length === 1 && revive.variables[0].name === name);
  const askDelete = (targets: Row[]) => { revive.reset(); remove.ask(targets); };

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
          <Button variant="default" disabled={!canAll('UPDATE_FEATURE')} loading={reviving('many')} onClick={() => revive.mutate(selectedRows)}>
            Revive selected
          </Button>
          <Button color="red" variant="light" disabled={!canAll('DELETE_FEATURE')} onClick={() => askDelete(selectedRows)}>Delete selected</Button>
        </Group>
      </Group>
      <ErrorNotice error={revive.error} />
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
                  {r.archivedAt ? <Text size="sm"><When iso={r.archivedAt} /></Text> : '—'}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Can permission="UPDATE_FEATURE" project={r.project}>
                      <Button size="xs" variant="default" aria-label={`Revive ${r.name}`} onClick={() => revive.mutate([r])} loading={reviving('one', r.name)}>
                        Revive
                      </Button>
                    </Can>
                    <Can permission="DELETE_FEATURE" project={r.project}>
                      <Button size="xs" color="red" variant="light" aria-label={`Delete ${r.name}`} onClick={() => askDelete([r])}>Delete</Button>
                    </Can>
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
      {remove.dialog}
    </>
  );
}
