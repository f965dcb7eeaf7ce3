import { Alert, Anchor, Button, Group, Loader, Select, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Can } from '../components/Can';
import { ErrorNotice } from '../components/ErrorNotice';
import { FlagTable } from '../components/flags/FlagTable';
import { NewFlagModal } from '../components/flags/NewFlagModal';
import { ProjectNav } from '../components/projects/ProjectNav';
import { useEnvironmentPermissions, useProjectFlags, useSwitchFlag } from '../data/projects';
import { filterFlags, flagListState, sortFlags, sortParams, tagKey, tagsOf, type FlagState, type SortKey } from '../logic/flag-list';
import { LIFECYCLE_LABELS } from '../logic/every-flag';
import { stillListed, toggled, withShown } from '../logic/selection';
import { links } from '../routing/links';
import { useUrlState } from '../routing/useUrlState';
import { ExportModal } from './data/ExportModal';
import { useProposeChanges } from '../data/change-requests';

const STATES: Array<{ value: FlagState; label: string }> = [
  { value: 'all', label: 'All flags' },
  { value: 'enabled', label: 'Enabled somewhere' },
  { value: 'stale', label: 'Stale' },
];

/** What the list's address keeps: the search, the filters and the sort (a reload or a shared link shows the same list). */
const URL_STATE = ['q', 'type', 'tag', 'state', 'lifecycle', 'sort', 'dir'] as const;

/**
 * `/projects/:projectId`: the project's flags, searchable, filtered and sorted in the browser (the choices kept in the
 * address), with a switch per environment.
 */
export default function ProjectFlagsPage() {
  const projectId = useParams().projectId ?? '';
  const list = useProjectFlags(projectId);
  const [creating, { open, close }] = useDisclosure(false);
  const [exporting, exportDialog] = useDisclosure(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());

  const [url, setUrl] = useUrlState(URL_STATE);
  const { type, tag, state, sort } = useMemo(() => flagListState(url), [url]);
  const [search, setSearch] = useSearchInUrl(url.q, (q) => setUrl({ q }));
  const environments = useMemo(() => list.data?.project.environments.map((e) => e.environment) ?? [], [list.data?.project.environments]);
  const switches = useSwitches(projectId, environments, list.data?.changeRequestConfig);
  const onSort = useCallback((k: SortKey) => setUrl(sortParams(sort, k)), [setUrl, sort]);

  const flags = list.data?.flags;
  const tags = useMemo(() => tagsOf(flags ?? []), [flags]);
  const sorted = useMemo(() => sortFlags(flags ?? [], sort.key, sort.direction), [flags, sort]);
  const lifecycle = url.lifecycle;
  const shown = useMemo(() => filterFlags(sorted, { search, type, tag, state, lifecycle }), [sorted, search, type, tag, state, lifecycle]);
  // What is exported is what is ticked and still in the project (a flag archived since drops out).
  const exportable = useMemo(() => [...stillListed(selected, (flags ?? []).map((f) => f.name))], [selected, flags]);
  const onSelect = useCallback((flag: string, on: boolean) => setSelected((s) => toggled(s, flag, on)), []);
  const onSelectShown = useCallback((on: boolean) => setSelected((s) => withShown(s, shown.map((f) => f.name), on)), [shown]);
  const selection = useMemo(() => ({ selected, onSelect, onSelectShown }), [selected, onSelect, onSelectShown]);

  if (list.isPending) return <><Title order={1}>{projectId}</Title><Loader mt="md" aria-label="Loading flags" /></>;
  if (list.isError) return <><Title order={1}>{projectId}</Title><ErrorNotice error={list.error} /></>;
  const { project, featureTypes } = list.data;
  const { guarded, drafted, refusal } = switches;

  return (
    <>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <div>
          <Title order={1}>{project.name}</Title>
          <Text c="dimmed" size="sm">{project.description ? `${project.id} · ${project.description}` : project.id}</Text>
        </div>
        <Group gap="xs" wrap="nowrap">
          {exportable.length > 0 && <Text size="sm" c="dimmed">{exportable.length} selected</Text>}
          <Button variant="default" onClick={exportDialog.open}>Export</Button>
          <Can permission="CREATE_FEATURE" project={projectId}><Button onClick={open}>New flag</Button></Can>
        </Group>
      </Group>
      <ProjectNav projectId={projectId} />
      {project.lifecycleCounts.discardedWithTraffic > 0 && (
        <Alert color="red" variant="light" my="xs" title="Discarded flags still in use">
          {project.lifecycleCounts.discardedWithTraffic === 1 ? '1 flag' : `${project.lifecycleCounts.discardedWithTraffic} flags`} marked completed and discarded
          {' '}still get reported by SDKs: their code is still there.{' '}
          <Anchor component={Link} to={links.flags({ project: projectId, lifecycle: 'completed' })}>See completed flags</Anchor>
        </Alert>
      )}
      {guarded.length > 0 && (
        <Alert color="blue" variant="light" my="xs" title="Change requests">
          Change requests guard {guarded.join(', ')}.{' '}
          {drafted.size > 0
            ? <>Switching a flag in {[...drafted].join(', ')} adds the switch to your draft change request (see <Anchor component={Link} to={links.changeRequests(projectId)}>Change requests</Anchor>).</>
            : 'You may skip them: your switches apply directly.'}
        </Alert>
      )}
      <Group align="flex-end" gap="sm" my="sm">
        <TextInput label="Search flags" placeholder="Name contains…" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={260} />
        <Select label="Type" placeholder="All types" clearable data={featureTypes.map((t) => ({ value: t.id, label: t.name }))} value={type}
          onChange={(v) => setUrl({ type: v })} w={170} />
        <Select label="Tag" placeholder="Any tag" clearable searchable data={tags.map((t) => tagKey(t))} value={tag} onChange={(v) => setUrl({ tag: v })} w={200}
          nothingFoundMessage="No such tag" />
        <Select label="State" data={STATES} value={state} onChange={(v) => setUrl({ state: v === 'all' ? null : v })} allowDeselect={false} w={190} />
        <Select label="Lifecycle" placeholder="Any stage" clearable clearButtonProps={{ 'aria-label': 'Clear lifecycle' }} w={160} value={lifecycle}
          data={Object.entries(LIFECYCLE_LABELS).filter(([v]) => v !== 'archived').map(([value, label]) => ({ value, label }))}
          onChange={(v) => setUrl({ lifecycle: v })} />
        <Text size="sm" c="dimmed" ml="auto" aria-live="polite">{shown.length === list.data.flags.length ? `${shown.length} flags` : `${shown.length} of ${list.data.flags.length} flags`}</Text>
      </Group>
      {refusal && <ErrorNotice error={refusal.error} title={`${refusal.flag} in ${refusal.environment}: refused`} />}
      <FlagTable projectId={projectId} flags={shown} environments={environments} canSwitch={switches.canSwitch} sort={sort} onSort={onSort}
        onSwitch={switches.onSwitch} selection={selection} exposure />
      {shown.length === 0 && <Text c="dimmed" mt="sm">{list.data.flags.length === 0 ? 'No flags in this project yet.' : 'No flag matches these filters.'}</Text>}
      <ExportModal opened={exporting} onClose={exportDialog.close} projectId={projectId} environments={environments} selected={exportable} />
      {creating && <NewFlagModal onClose={close} projectId={projectId} featureTypes={featureTypes} naming={project.featureNaming} />}
    </>
  );
}

/**
 * The search box's text: shown and applied as typed, written to the address once typing pauses (so typing over 1000
 * flags does not also navigate on every key), and taken from the address when that changes otherwise.
 */
function useSearchInUrl(inUrl: string | null, write: (q: string | null) => void) {
  const [text, setText] = useState(inUrl ?? '');
  const [settled] = useDebouncedValue(text, 300);
  useEffect(() => { if ((settled || null) !== inUrl) write(settled || null); }, [settled]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => { if (inUrl !== (settled || null)) setText(inUrl ?? ''); }, [inUrl]); // eslint-disable-line react-hooks/exhaustive-deps
  return [text, setText] as const;
}

/**
 * The list's switches: which environments the user may switch, and a switch sent directly (shown at once, put back
 * if refused) or, where change requests guard the environment and the user may not skip them, added to their draft.
 * A refusal is shown once, above the list, in the service's words.
 */
function useSwitches(projectId: string, environments: string[], config: ReadonlyArray<{ environment: string; changeRequestsEnabled: boolean }> | undefined) {
  const permissions = useEnvironmentPermissions(projectId, environments);
  const canSwitch = useMemo(() => Object.fromEntries(environments.map((env) => [env, !!permissions[env]?.switch])), [environments, permissions]);
  const guarded = useMemo(
    () => (config ?? []).filter((c) => c.changeRequestsEnabled && environments.includes(c.environment)).map((c) => c.environment),
    [config, environments],
  );
  const drafted = useMemo(() => new Set(guarded.filter((env) => !permissions[env]?.skipChangeRequests)), [guarded, permissions]);
  const [refusal, setRefusal] = useState<{ flag: string; environment: string; error: unknown } | null>(null);
  const { mutate: switchFlag } = useSwitchFlag(projectId);
  const { mutate: propose } = useProposeChanges(projectId);
  const onSwitch = useCallback((flag: string, environment: string, enabled: boolean) => {
    setRefusal(null);
    const onError = (error: unknown) => setRefusal({ flag, environment, error });
    if (!drafted.has(environment)) switchFlag({ flag, environment, enabled }, { onError });
    else propose({ environment, changes: { action: 'updateEnabled', feature: flag, payload: { enabled } } }, { onError });
  }, [switchFlag, propose, drafted]);
  return { canSwitch, guarded, drafted, refusal, onSwitch };
}
