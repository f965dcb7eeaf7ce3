import { Badge, Button, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { followEvents, type LiveEvent, type LiveState } from '../api/live-events';
import { ErrorNotice } from '../components/ErrorNotice';
import { useEventFilters, useEvents, type EventLogFilter } from '../data/events';
import { useUrlState } from '../routing/useUrlState';
import { EventItem } from './history/EventItem';

/**
 * `/history`: the audit log, newest first, filtered by type, project and flag (kept in the address, so a filtered
 * view can be linked), paged with "Load more", and live: events committed while the page is open are prepended.
 */
export default function EventLogPage() {
  const [{ type, project, feature: linkedFeature }, setUrl] = useUrlState(['type', 'project', 'feature']);
  // The flag box is typed into: the address (and the list) follow it once typing pauses.
  const [flagText, setFlagText] = useState(linkedFeature ?? '');
  const [feature] = useDebouncedValue(flagText.trim(), 300);
  useEffect(() => { setUrl({ feature: feature || null }); }, [feature]); // eslint-disable-line react-hooks/exhaustive-deps

  const filter = useMemo<EventLogFilter>(() => ({ type, project, feature: feature || null }), [type, project, feature]);
  const filters = useEventFilters();
  const events = useEvents(filter);

  const { live, state, liveError } = useLiveEvents(filter);
  const loaded = useMemo(() => events.data?.pages.flatMap((p) => p.events.nodes) ?? [], [events.data]);
  // Streamed events first (newest first), then the pages; an event both streamed and refetched is shown once.
  const shown = useMemo(() => {
    const ids = new Set(loaded.map((e) => e.id));
    return [...live.filter((e) => !ids.has(e.id)), ...loaded];
  }, [live, loaded]);
  const total = events.data?.pages[0]?.events.totalCount;
  const freshIds = useMemo(() => new Set(live.map((e) => e.id)), [live]);

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Event log</Title>
        <LiveIndicator state={state} error={liveError} />
      </Group>
      <Group align="flex-end" mb="md" gap="sm">
        <Select label="Event type" placeholder="Any type" data={filters.data?.eventTypes ?? []} value={type}
          onChange={(v) => setUrl({ type: v })} searchable clearable w={300} nothingFoundMessage="No such event type" />
        <Select label="Project" placeholder="Any project" data={(filters.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={project} onChange={(v) => setUrl({ project: v })} searchable clearable w={220} />
        <TextInput label="Flag" placeholder="Exact flag name" value={flagText} onChange={(e) => setFlagText(e.currentTarget.value)} w={220} />
      </Group>
      <ErrorNotice error={filters.error} />
      <ErrorNotice error={events.error} />
      {events.isPending ? <Loader aria-label="Loading events" /> : (
        <Stack gap="xs" component="ul" aria-label="Events" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map((e) => <EventItem key={e.id} event={e} fresh={freshIds.has(e.id)} />)}
        </Stack>
      )}
      {!events.isPending && shown.length === 0 && <Text c="dimmed">No event matches these filters.</Text>}
      <Group mt="md" gap="sm">
        {events.hasNextPage && (
          <Button variant="default" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>Load more</Button>
        )}
        {total !== undefined && (
          <Text size="sm" c="dimmed">Showing {shown.length} of {total + live.filter((e) => !loaded.some((l) => l.id === e.id)).length} events</Text>
        )}
      </Group>
    </>
  );
}

/** The live stream for the current filters: reopened when they change, closed when the page is left. */
function useLiveEvents(filter: EventLogFilter) {
  const [live, setLive] = useState<LiveEvent[]>([]);
  const [state, setState] = useState<LiveState>('connecting');
  const [liveError, setLiveError] = useState<string | undefined>();
  useEffect(() => {
    setLive([]);
    const stop = followEvents(
      { types: filter.type ? [filter.type] : undefined, project: filter.project ?? undefined, feature: filter.feature ?? undefined },
      {
        onEvent: (e) => setLive((prev) => (prev.some((p) => p.id === e.id) ? prev : [e, ...prev].slice(0, 500))),
        onState: (s, error) => {
          setState(s);
          setLiveError(s === 'error' ? error : undefined);
        },
      },
    );
    return stop;
  }, [filter]);
  return { live, state, liveError };
}

function LiveIndicator({ state, error }: { state: LiveState; error?: string }) {
  const look = {
    live: { color: 'green', text: 'Live' },
    connecting: { color: 'yellow', text: 'Connecting…' },
    error: { color: 'red', text: 'Reconnecting…' },
  }[state];
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Badge variant="dot" color={look.color} size="lg" tt="none" title={error}>{look.text}</Badge>
      {state === 'error' && error && <Text size="xs" c="dimmed" maw={360}>Live updates paused: {error}</Text>}
    </Group>
  );
}
