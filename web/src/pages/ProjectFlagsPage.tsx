import { Alert, Anchor, Button, Group, Loader, Select, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { gql } from '../api/client';
import { allowedQuery, useAllowed } from '../data/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { FlagTable } from '../components/flags/FlagTable';
import { NewFlagModal } from '../components/flags/NewFlagModal';
import { ProjectNav } from '../components/projects/ProjectNav';
import { graphql } from '../gql';
import { useProposeChanges } from './changes/drafts';
import type { ProjectFlagsRowFragment } from '../gql/graphql';
import { filterFlags, sortFlags, tagKey, tagsOf, type FlagState, type SortDirection, type SortKey } from '../logic/flag-list';
import { stillListed, toggled, withShown } from '../logic/selection';
import { ExportModal } from './data/ExportModal';
import { links } from '../routing/links';

/** The service's largest page: a project of up to 1000 flags comes in one request. */
const PAGE = 1000;

graphql(`
  fragment ProjectFlagsRow on Feature {
    name type description stale createdAt
    tags { type value }
    environments { name enabled lastSeenAt }
  }
`);

// The page, its environments, their change-request settings and the feature types in one request with the first page.
const ProjectFlagsQuery = graphql(`
  query ProjectFlags($id: String!, $first: Int!) {
    project(id: $id) {
      id name description
      featureNaming { pattern example description }
      environments { environment }
      features(first: $first) { nodes { ...ProjectFlagsRow } pageInfo { hasNextPage endCursor } }
    }
    changeRequestConfig(project: $id) { environment changeRequestsEnabled }
    featureTypes { id name }
  }
`);

const ProjectFlagsMoreQuery = graphql(`
  query ProjectFlagsMore($id: String!, $first: Int!, $after: String) {
    project(id: $id) { features(first: $first, after: $after) { nodes { ...ProjectFlagsRow } pageInfo { hasNextPage endCursor } } }
  }
`);

const SetEnabledMutation = graphql(`
  mutation ProjectFlagsSetEnabled($input: SetFeatureEnvironmentEnabledInput!) {
    setFeatureEnvironmentEnabled(input: $input) { featureName name enabled }
  }
`);

type Flag = ProjectFlagsRowFragment;

/** The first page with the page's other data, then any further pages (a project beyond the service's page size). */
async function loadFlags(id: string) {
  const first = await gql(ProjectFlagsQuery, { id, first: PAGE });
  const flags: Flag[] = [...first.project.features.nodes];
  let page = first.project.features.pageInfo;
  while (page.hasNextPage && page.endCursor) {
    const more = await gql(ProjectFlagsMoreQuery, { id, first: PAGE, after: page.endCursor });
    flags.push(...more.project.features.nodes);
    page = more.project.features.pageInfo;
  }
  return { ...first, flags };
}
type Loaded = Awaited<ReturnType<typeof loadFlags>>;

/**
 * The router loads this chunk before the layout has asked the service who the user is: when the address is a
 * project's flag list, its request starts now, in parallel with that question, and the page's first load takes it
 * over (once). A refusal (no session) is seen by that load, or by nobody when the layout sends the user to sign in.
 */
let early: { id: string; promise: Promise<Loaded> } | null = (() => {
  const m = /^\/projects\/([^/]+)\/?$/.exec(window.location.pathname);
  if (!m) return null;
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  const promise = loadFlags(id);
  promise.catch(() => undefined);
  return { id, promise };
})();

function firstLoad(id: string): Promise<Loaded> {
  const taken = early?.id === id ? early.promise : null;
  early = null;
  return taken ?? loadFlags(id);
}

const setEnabledIn = (data: Loaded | undefined, flag: string, environment: string, enabled: boolean): Loaded | undefined =>
  data && {
    ...data,
    flags: data.flags.map((f) => (f.name !== flag ? f : { ...f, environments: f.environments.map((e) => (e.name === environment ? { ...e, enabled } : e)) })),
  };

const STATES: Array<{ value: FlagState; label: string }> = [
  { value: 'all', label: 'All flags' },
  { value: 'enabled', label: 'Enabled somewhere' },
  { value: 'stale', label: 'Stale' },
];

/** `/projects/:projectId`: the project's flags, searchable, filtered and sorted in the browser, with a switch per environment. */
export default function ProjectFlagsPage() {
  const projectId = useParams().projectId ?? '';
  const queryClient = useQueryClient();
  const key = useMemo(() => ['project-flags', projectId], [projectId]);
  const list = useQuery({ queryKey: key, queryFn: () => firstLoad(projectId), staleTime: 10_000 });
  const { can } = useAllowed(projectId);
  const [creating, { open, close }] = useDisclosure(false);
  const [exporting, exportDialog] = useDisclosure(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());

  const [search, setSearch] = useState('');
  const [type, setType] = useState<string | null>(null);
  const [tag, setTag] = useState<string | null>(null);
  const [state, setState] = useState<FlagState>('all');
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: 'name', direction: 'asc' });
  const [refusal, setRefusal] = useState<{ flag: string; environment: string; error: unknown } | null>(null);

  const environments = useMemo(() => list.data?.project.environments.map((e) => e.environment) ?? [], [list.data?.project.environments]);
  // One permission answer per environment, shared with useAllowed's cache.
  const allowed = useQueries({ queries: environments.map((environment) => allowedQuery(projectId, environment)) });
  const allowedKey = allowed.map((a) => (a.data?.me.allowed.includes('UPDATE_FEATURE_ENVIRONMENT') ? '1' : '0')).join('');
  const canSwitch = useMemo(
    () => Object.fromEntries(environments.map((env, i) => [env, allowedKey[i] === '1'])),
    [environments, allowedKey],
  );
  // Where change requests guard an environment and the user may not skip them, a switch becomes a change of their draft.
  const skipKey = allowed.map((a) => (a.data?.me.allowed.includes('SKIP_CHANGE_REQUEST') ? '1' : '0')).join('');
  const guarded = list.data?.changeRequestConfig.filter((c) => c.changeRequestsEnabled && environments.includes(c.environment)).map((c) => c.environment) ?? [];

  const switchFlag = useMutation({
    mutationFn: (v: { flag: string; environment: string; enabled: boolean }) =>
      gql(SetEnabledMutation, { input: { project: projectId, feature: v.flag, environment: v.environment, enabled: v.enabled } }),
    onMutate: async (v) => {
      setRefusal(null);
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<Loaded>(key, (d) => setEnabledIn(d, v.flag, v.environment, v.enabled));
    },
    onSuccess: (r, v) => queryClient.setQueryData<Loaded>(key, (d) => setEnabledIn(d, v.flag, v.environment, r.setFeatureEnvironmentEnabled.enabled)),
    onError: (error, v) => {
      // Back to what it was (this flag and environment only: other switches may be on their way), and say why.
      queryClient.setQueryData<Loaded>(key, (d) => setEnabledIn(d, v.flag, v.environment, !v.enabled));
      setRefusal({ flag: v.flag, environment: v.environment, error });
      notifications.show({ color: 'red', title: `${v.flag} in ${v.environment} was not switched`, message: error instanceof Error ? error.message : String(error) });
    },
  });
  const { mutate } = switchFlag;
  const { mutate: propose } = useProposeChanges(projectId);
  const guardedKey = guarded.join(',');
  const drafted = useMemo(
    () => new Set(guardedKey.split(',').filter((env) => env && skipKey[environments.indexOf(env)] !== '1')),
    [guardedKey, skipKey, environments],
  );
  const onSwitch = useCallback((flag: string, environment: string, enabled: boolean) => {
    if (!drafted.has(environment)) return mutate({ flag, environment, enabled });
    setRefusal(null);
    propose({ environment, changes: { action: 'updateEnabled', feature: flag, payload: { enabled } } }, {
      onError: (error) => setRefusal({ flag, environment, error }),
    });
  }, [mutate, propose, drafted]);
  const onSort = useCallback((k: SortKey) => setSort((s) => ({ key: k, direction: s.key === k && s.direction === 'asc' ? 'desc' : 'asc' })), []);

  const flags = list.data?.flags;
  const tags = useMemo(() => tagsOf(flags ?? []), [flags]);
  const sorted = useMemo(() => sortFlags(flags ?? [], sort.key, sort.direction), [flags, sort]);
  const shown = useMemo(() => filterFlags(sorted, { search, type, tag, state }), [sorted, search, type, tag, state]);
  // What is exported is what is ticked and still in the project (a flag archived since drops out).
  const exportable = useMemo(() => [...stillListed(selected, (flags ?? []).map((f) => f.name))], [selected, flags]);
  const onSelect = useCallback((flag: string, on: boolean) => setSelected((s) => toggled(s, flag, on)), []);
  const onSelectShown = useCallback((on: boolean) => setSelected((s) => withShown(s, shown.map((f) => f.name), on)), [shown]);
  const selection = useMemo(() => ({ selected, onSelect, onSelectShown }), [selected, onSelect, onSelectShown]);

  if (list.isPending) return <><Title order={1}>{projectId}</Title><Loader mt="md" aria-label="Loading flags" /></>;
  if (list.isError) return <><Title order={1}>{projectId}</Title><ErrorNotice error={list.error} /></>;
  const { project, featureTypes } = list.data;

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
          {can('CREATE_FEATURE') && <Button onClick={open}>New flag</Button>}
        </Group>
      </Group>
      <ProjectNav projectId={projectId} />
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
        <Select label="Type" placeholder="All types" clearable data={featureTypes.map((t) => ({ value: t.id, label: t.name }))} value={type} onChange={setType} w={170} />
        <Select label="Tag" placeholder="Any tag" clearable searchable data={tags.map((t) => tagKey(t))} value={tag} onChange={setTag} w={200}
          nothingFoundMessage="No such tag" />
        <Select label="State" data={STATES} value={state} onChange={(v) => setState((v as FlagState | null) ?? 'all')} allowDeselect={false} w={190} />
        <Text size="sm" c="dimmed" ml="auto" aria-live="polite">{shown.length === list.data.flags.length ? `${shown.length} flags` : `${shown.length} of ${list.data.flags.length} flags`}</Text>
      </Group>
      {refusal && <ErrorNotice error={refusal.error} title={`${refusal.flag} in ${refusal.environment}: refused`} />}
      <FlagTable projectId={projectId} flags={shown} environments={environments} canSwitch={canSwitch} sort={sort} onSort={onSort} onSwitch={onSwitch}
        selection={selection} />
      {shown.length === 0 && <Text c="dimmed" mt="sm">{list.data.flags.length === 0 ? 'No flags in this project yet.' : 'No flag matches these filters.'}</Text>}
      <ExportModal opened={exporting} onClose={exportDialog.close} projectId={projectId} environments={environments} selected={exportable} />
      <NewFlagModal opened={creating} onClose={close} projectId={projectId} featureTypes={featureTypes} naming={project.featureNaming} />
    </>
  );
}
