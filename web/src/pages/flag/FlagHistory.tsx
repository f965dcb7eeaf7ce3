import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { Flag } from '../../data/flags/flag';
import { useFlagVersions, type FlagVersion } from '../../data/flags/history';
import { strategyNames } from '../../logic/version-diff';
import { PastFlagView } from './PastFlagView';
import { RevertDialog } from './RevertDialog';
import { VersionCard } from './VersionCard';

interface FlagHistoryProps {
  flag: Flag;
  /** The project's environments under change requests (a revert drafts its changes there). */
  guardedEnvironments: readonly string[];
}

/** The event the address points at (`#event-<id>`, from the event log), or null. */
const linkedEventOf = (hash: string) => {
  const m = /^#event-(\d+)$/.exec(hash);
  return m ? Number(m[1]) : null;
};

/**
 * The flag's History tab: its versions, newest first, 20 at a time ("Load more"), each with what changed, who changed
 * it and when; "View as of" shows the flag as it was then (in place of the timeline, until "Back to the present"), and
 * "Revert to this version" asks before bringing it back. An address ending in `#event-<id>` opens at the version that
 * event's change made (loading older pages until it is found).
 */
export function FlagHistory({ flag, guardedEnvironments }: FlagHistoryProps) {
  const versions = useFlagVersions(flag.name);
  const list = useMemo(() => versions.data?.pages.flatMap((p) => p.feature.versions) ?? [], [versions.data]);
  const names = useMemo(() => strategyNames(list.flatMap((v) => v.diff), flag.environments.flatMap((e) => e.strategies)), [list, flag.environments]);
  const [viewing, setViewing] = useState<FlagVersion | null>(null);
  const [reverting, setReverting] = useState<FlagVersion | null>(null);
  const ref = { name: flag.name, project: flag.project };

  const linkedEvent = linkedEventOf(useLocation().hash);
  const linkedVersion = linkedEvent === null ? undefined : list.find((v) => v.events.some((e) => e.id === linkedEvent));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = versions;
  useEffect(() => {
    if (linkedEvent !== null && versions.isSuccess && !linkedVersion && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [linkedEvent, linkedVersion, versions.isSuccess, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const scrolled = useRef(false);
  useEffect(() => {
    if (!linkedVersion || scrolled.current) return;
    scrolled.current = true;
    document.getElementById(`version-${linkedVersion.version}`)?.scrollIntoView({ block: 'center' });
  }, [linkedVersion]);

  // Back from the past view, focus returns to the button that opened it.
  const [returnTo, setReturnTo] = useState<number | null>(null);
  useEffect(() => {
    if (viewing || returnTo === null) return;
    const button = document.getElementById(`view-as-of-${returnTo}`);
    button?.scrollIntoView({ block: 'center' });
    button?.focus();
    setReturnTo(null);
  }, [viewing, returnTo]);

  if (viewing) {
    return <PastFlagView flag={ref} version={viewing} onBack={() => { setReturnTo(viewing.version); setViewing(null); }} />;
  }
  const newest = list[0]?.version;
  return (
    <Stack gap="sm" component="section" aria-labelledby="flag-history">
      <Group justify="space-between">
        <Title order={2} size="h3" id="flag-history">History</Title>
        {versions.data && <Text size="sm" c="dimmed">{list.length} version{list.length === 1 ? '' : 's'} shown, newest first</Text>}
      </Group>
      <ErrorNotice error={versions.error} />
      {versions.isPending && <Loader size="sm" aria-label="Loading the history" />}
      {versions.data && list.length === 0 && <Text c="dimmed">No version of this flag is recorded.</Text>}
      {linkedEvent !== null && versions.isSuccess && !linkedVersion && !hasNextPage && (
        <Text size="sm" c="dimmed">Event {linkedEvent} made none of these versions: it changed nothing of the flag’s configuration that history records.</Text>
      )}
      {list.map((v) => (
        <VersionCard key={v.version} project={flag.project} version={v} newest={v.version === newest} names={names}
          linkedEvent={linkedVersion?.version === v.version ? linkedEvent : null}
          onView={() => { window.scrollTo(0, 0); setViewing(v); }} onRevert={() => setReverting(v)} />
      ))}
      {hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>Load more</Button>
        </Group>
      )}
      <RevertDialog flag={ref} version={reverting} names={names} guardedEnvironments={guardedEnvironments} onClose={() => setReverting(null)} />
    </Stack>
  );
}
