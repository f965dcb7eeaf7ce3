import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Can } from '../../components/Can';
import type { FlagVersion } from '../../data/flags/history';
import { relativeTime } from '../../logic/flag-list';
import type { StrategyNames } from '../../logic/version-diff';
import { DiffList } from './VersionDiff';

/** When, exactly, in the reader's words and time zone ("29 Nov 2026, 10:51:29"). */
export const exactTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The permissions any part of a revert needs: the user who holds none of them is not offered it. */
export const REVERT_PERMISSIONS = ['UPDATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT', 'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY'] as const;

interface VersionCardProps {
  project: string;
  version: FlagVersion;
  /** The newest version is the flag as it is: there is nothing to revert to. */
  newest: boolean;
  names: StrategyNames;
  /** The event the address points at (`#event-<id>`), when it is one of this version's. */
  linkedEvent: number | null;
  onView(): void;
  onRevert(): void;
}

/**
 * One version of the flag: its number, when (relative, and exactly), who, the events its change wrote, what changed,
 * and the buttons to see the flag as it was then and to bring it back to that.
 */
export function VersionCard({ project, version, newest, names, linkedEvent, onView, onRevert }: VersionCardProps) {
  const n = version.version;
  const headingId = `version-${n}-heading`;
  return (
    <Paper component="article" withBorder p="sm" radius="md" id={`version-${n}`} aria-labelledby={headingId}
      style={linkedEvent !== null ? { borderColor: 'var(--mantine-color-blue-8)', borderWidth: 2 } : undefined}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={3} size="h4" id={headingId}>Version {n}</Title>
            {newest && <Badge variant="light" color="green" tt="none">Current</Badge>}
            {linkedEvent !== null && <Badge variant="outline" color="blue" tt="none">Made by event {linkedEvent}, linked from the event log</Badge>}
            {version.deleted && <Badge variant="light" color="red" tt="none">Deleted</Badge>}
            {!version.deleted && version.archived && <Badge variant="light" color="orange" tt="none">Archived</Badge>}
          </Group>
          <Text size="sm" c="dimmed">
            <time dateTime={version.createdAt} title={version.createdAt}>{relativeTime(version.createdAt)}</time>
            {' '}({exactTime(version.createdAt)}) · {version.createdBy ? `by ${version.createdBy}` : 'made outside the API'} · revision {version.revision}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {!version.deleted && (
            <Button size="xs" variant="default" id={`view-as-of-${n}`} aria-label={`View as of version ${n}`} onClick={onView}>View as of</Button>
          )}
          {!newest && !version.deleted && (
            <Can permission={REVERT_PERMISSIONS} project={project}>
              <Button size="xs" variant="light" color="orange" aria-describedby={headingId} onClick={onRevert}>Revert to this version</Button>
            </Can>
          )}
        </Group>
      </Group>

      {version.events.length > 0 && (
        <Group gap={6} mt={6} aria-label={`Events of version ${n}`} role="group">
          <Text span size="xs" fw={600} c="dimmed">Events</Text>
          {version.events.map((e) => (
            <Badge key={e.id} id={`event-${e.id}`} size="sm" tt="none" variant={linkedEvent === e.id ? 'filled' : 'light'} color="gray"
              title={`Event ${e.id} by ${e.createdBy}`}>
              {e.type}{e.environment ? ` · ${e.environment}` : ''}
            </Badge>
          ))}
        </Group>
      )}

      <Stack gap={4} mt="xs">
        <DiffList entries={version.diff} names={names} label={`Changes in version ${n}`} />
      </Stack>
    </Paper>
  );
}
