import { Group, Loader, Select, Text, TextInput, Title } from '@mantine/core';
import { useMemo } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { useEveryFlag } from '../data/every-flag';
import { filterChoices, filterFlags, LIFECYCLE_LABELS, type EveryFlagFilters } from '../logic/every-flag';
import { useUrlState } from '../routing/useUrlState';
import { EveryFlagTable } from './flags/EveryFlagTable';

const FILTERS = ['q', 'project', 'type', 'tag', 'state', 'lifecycle', 'stale'] as const;

/**
 * `/flags`: every flag of every project, to find one without knowing its project: a search and filters (project,
 * type, tag, state, lifecycle, staleness) kept in the address, over a list that renders only the rows in view.
 */
export default function FlagsPage() {
  const [filters, setFilters] = useUrlState(FILTERS);
  const every = useEveryFlag();
  const all = useMemo(() => every.data ?? [], [every.data]);
  const choices = useMemo(() => filterChoices(all), [all]);
  const shown = useMemo(() => filterFlags(all, filters as EveryFlagFilters), [all, filters]);
  const select = (name: (typeof FILTERS)[number], label: string, data: Array<string | { value: string; label: string }>) => (
    <Select label={label} placeholder="Any" data={data} value={filters[name]} clearable clearButtonProps={{ 'aria-label': `Clear ${label.toLowerCase()}` }} searchable w={170}
      onChange={(v) => setFilters({ [name]: v })} comboboxProps={{ withinPortal: true }} />
  );
  return (
    <>
      <Title order={1}>Flags</Title>
      <Text c="dimmed" size="sm" mb="md">Every flag of every project. Filters stay in the address, so a link shows the same list.</Text>
      <Group align="end" gap="sm" mb="md" wrap="wrap">
        <TextInput label="Search" type="search" placeholder="Name, project or description" value={filters.q ?? ''} w={260}
          onChange={(e) => setFilters({ q: e.currentTarget.value })} />
        {select('project', 'Project', choices.projects)}
        {select('type', 'Type', choices.types)}
        {select('tag', 'Tag', choices.tags)}
        {select('state', 'State', [{ value: 'on', label: 'On somewhere' }, { value: 'off', label: 'Off everywhere' }])}
        {select('lifecycle', 'Lifecycle', Object.entries(LIFECYCLE_LABELS).filter(([v]) => v !== 'archived').map(([value, label]) => ({ value, label })))}
        {select('stale', 'Staleness', [{ value: 'stale', label: 'Stale' }, { value: 'potentially', label: 'Potentially stale' }, { value: 'fresh', label: 'Neither' }])}
      </Group>
      <ErrorNotice error={every.error} />
      {every.isPending && <Loader aria-label="Loading flags" />}
      {every.data && (
        <>
          <Text size="sm" c="dimmed" mb="xs" role="status">{shown.length === all.length ? `${all.length} flags` : `${shown.length} of ${all.length} flags`}</Text>
          <EveryFlagTable flags={shown} now={every.dataUpdatedAt || Date.now()} />
        </>
      )}
    </>
  );
}
