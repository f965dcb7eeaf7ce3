import { Alert, Anchor, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { FlagRef } from '../../data/flags/edits';
import { useFlagChangesSince, useRevertFlag, type FlagVersion } from '../../data/flags/history';
import { environmentsOf, revertActionText, turnedBack, type StrategyNames } from '../../logic/version-diff';
import { links } from '../../routing/links';
import { exactTime } from './VersionCard';
import { DiffList } from './VersionDiff';

/** What the revert did, in a sentence: all of it made, all of it drafted, or some of each. */
function outcome(name: string, result: { version: number; changes: readonly unknown[]; drafts: readonly unknown[] }): string {
  if (result.drafts.length === 0) return `${name} is back at version ${result.version}.`;
  if (result.changes.length === 0) return `Nothing of ${name} changed yet: bringing it back to version ${result.version} waits in draft change requests.`;
  return `${name} is back at version ${result.version}, except where change requests guard it: those changes wait in draft change requests.`;
}

interface RevertDialogProps {
  flag: FlagRef;
  /** The version to go back to; null: the dialog is closed. */
  version: FlagVersion | null;
  names: StrategyNames;
  /** The project's environments under change requests. */
  guardedEnvironments: readonly string[];
  onClose(): void;
}

/**
 * "Revert to this version", asked once more: what differs between that version and now (`featureDiff` from its
 * instant), turned round into what the revert will change, and where change requests turn the changes into a draft.
 * Once confirmed, what the service did: the changes made and the drafts made, linked.
 */
export function RevertDialog({ flag, version, names, guardedEnvironments, onClose }: RevertDialogProps) {
  const revert = useRevertFlag(flag);
  // The version last asked about, kept while the dialog fades out after it closed.
  const [last, setLast] = useState(version);
  useEffect(() => { if (version) setLast(version); }, [version]);
  const shown = version ?? last;
  const since = useFlagChangesSince(flag, shown?.createdAt ?? null, version !== null && !revert.data);
  const n = shown?.version ?? 0;
  const close = () => {
    revert.reset();
    onClose();
  };
  const changes = turnedBack(since.data ?? []);
  const drafted = environmentsOf(changes).filter((e) => guardedEnvironments.includes(e));

  return (
    <Modal opened={version !== null} onClose={close} title={`Revert to version ${n}`} size="xl">
      {revert.data ? (
        <Stack gap="sm">
          <Text size="sm" role="status">{outcome(flag.name, revert.data)}</Text>
          <Text size="sm" fw={600}>Changes made</Text>
          {revert.data.changes.length === 0 ? <Text size="sm" c="dimmed">No change was made here.</Text> : (
            <List size="sm" aria-label="Changes made">
              {revert.data.changes.map((c, i) => <List.Item key={i}>{revertActionText(c)}</List.Item>)}
            </List>
          )}
          {revert.data.drafts.length > 0 && (
            <>
              <Text size="sm" fw={600}>Drafts made</Text>
              <List size="sm" aria-label="Drafts made">
                {revert.data.drafts.map((d) => (
                  <List.Item key={d.changeRequestId}>
                    <Anchor component={Link} to={links.changeRequest(flag.project, d.changeRequestId)}>Draft change request #{d.changeRequestId}</Anchor>
                    {' '}in {d.environment}: {d.changes.map(revertActionText).join('; ')}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          <Group justify="flex-end" mt="sm"><Button onClick={close} data-autofocus>Close</Button></Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            This brings {flag.name} back to how it was at version {n}{shown ? ` (${exactTime(shown.createdAt)})` : ''} through ordinary
            changes: each needs its own permission and is recorded as an event. An environment under change requests gets a
            draft change request instead of the change.
          </Text>
          {drafted.length > 0 && (
            <Alert color="blue" variant="light" role="note" title="Change requests">
              Change requests guard {drafted.join(', ')}: the changes there go into a draft change request, to be reviewed and applied
              later.
            </Alert>
          )}
          <Text size="sm" fw={600}>What the revert changes</Text>
          <ErrorNotice error={since.error} />
          {since.isPending && <Loader size="sm" aria-label="Loading what differs from now" />}
          {since.data && (
            changes.length === 0
              ? <Text size="sm" c="dimmed">Nothing differs between version {n} and now: the revert changes nothing.</Text>
              : <DiffList entries={changes} names={names} label="What the revert changes" />
          )}
          <ErrorNotice error={revert.error} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button color="orange" loading={revert.isPending} disabled={!since.data}
              onClick={() => revert.mutate({ version: n })}>Revert to version {n}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
