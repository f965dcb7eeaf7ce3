import { Anchor, Badge, Group, Switch, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { Link } from 'react-router';
import { lastSeen, relativeTime, type FlagListItem, type SortDirection, type SortKey } from '../../logic/flag-list';

/** Every row has this height, so the virtualiser never measures (scrolling 1000 rows does no layout reads). */
export const ROW_HEIGHT = 48;
const HEADER_HEIGHT = 40;
const SHOWN_TAGS = 2;

export interface FlagRowData extends FlagListItem {
  description?: string | null;
}

export interface FlagTableProps {
  projectId: string;
  /** The rows to show, already filtered and sorted. */
  flags: FlagRowData[];
  /** The project's environments, one switch column each. */
  environments: string[];
  /** Environments whose switches the user may use. */
  canSwitch: Record<string, boolean>;
  sort: { key: SortKey; direction: SortDirection };
  onSort: (key: SortKey) => void;
  onSwitch: (flag: string, environment: string, enabled: boolean) => void;
}

const exactTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * The project's flags as a table whose rows are rendered only around the visible part of its scroll container
 * (@tanstack/react-virtual): two spacer rows stand for the rest, so the table keeps its semantics (header row,
 * aria-rowcount and aria-rowindex tell a screen reader where it is in the whole list).
 */
export function FlagTable({ projectId, flags, environments, canSwitch, sort, onSort, onSwitch }: FlagTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: flags.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    paddingStart: HEADER_HEIGHT,
    overscan: 8,
    getItemKey: (i) => flags[i].name,
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length ? items[0].start - HEADER_HEIGHT : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const columns = 5 + environments.length;
  const now = Date.now();

  const header = (key: SortKey, label: string, width?: number | string) => (
    <Table.Th w={width} aria-sort={sort.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <UnstyledButton onClick={() => onSort(key)} fw={700} fz="sm" aria-label={`Sort by ${label.toLowerCase()}`}>
        {label} {sort.key === key ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );

  return (
    <div ref={scrollRef} data-testid="flag-scroll" style={{ maxHeight: 'max(360px, calc(100vh - 300px))', overflow: 'auto', contain: 'content' }}>
      <Table stickyHeader layout="fixed" highlightOnHover aria-label="Flags" aria-rowcount={flags.length + 1} miw={720 + environments.length * 110}>
        <Table.Thead>
          <Table.Tr h={HEADER_HEIGHT} aria-rowindex={1}>
            {header('name', 'Name', '32%')}
            {header('type', 'Type', 120)}
            <Table.Th>Tags</Table.Th>
            {header('createdAt', 'Created', 120)}
            {header('lastSeen', 'Last seen', 130)}
            {environments.map((env) => <Table.Th key={env} w={110}>{env}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && <tr aria-hidden="true"><td colSpan={columns} style={{ height: top, padding: 0, border: 0 }} /></tr>}
          {items.map((item) => (
            <FlagRow key={item.key} index={item.index} flag={flags[item.index]} projectId={projectId} environments={environments}
              canSwitch={canSwitch} onSwitch={onSwitch} now={now} />
          ))}
          {bottom > 0 && <tr aria-hidden="true"><td colSpan={columns} style={{ height: bottom, padding: 0, border: 0 }} /></tr>}
        </Table.Tbody>
      </Table>
    </div>
  );
}

interface FlagRowProps {
  index: number;
  flag: FlagRowData;
  projectId: string;
  environments: string[];
  canSwitch: Record<string, boolean>;
  onSwitch: FlagTableProps['onSwitch'];
  now: number;
}

const cell = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** One flag: memoised, so switching one flag re-renders that row alone. */
const FlagRow = memo(function FlagRow({ index, flag, projectId, environments, canSwitch, onSwitch, now }: FlagRowProps) {
  const seen = lastSeen(flag);
  const byEnv = new Map(flag.environments.map((e) => [e.name, e.enabled]));
  const extraTags = flag.tags.slice(SHOWN_TAGS);
  return (
    <Table.Tr h={ROW_HEIGHT} aria-rowindex={index + 2}>
      <Table.Td style={cell}>
        <Group gap={6} wrap="nowrap">
          <Anchor component={Link} to={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(flag.name)}`} fw={500} style={cell}
            title={flag.description ?? undefined}>
            {flag.name}
          </Anchor>
          {flag.stale && <Badge size="sm" color="orange" variant="dot" tt="none">stale</Badge>}
        </Group>
      </Table.Td>
      <Table.Td style={cell}><Text size="sm">{flag.type}</Text></Table.Td>
      <Table.Td style={cell}>
        <Group gap={4} wrap="nowrap">
          {flag.tags.slice(0, SHOWN_TAGS).map((t) => (
            <Badge key={`${t.type}:${t.value}`} size="sm" variant="outline" color="gray.8" tt="none">{t.type}:{t.value}</Badge>
          ))}
          {extraTags.length > 0 && (
            <Tooltip label={extraTags.map((t) => `${t.type}:${t.value}`).join(', ')}>
              <Badge size="sm" variant="light" color="gray.8" tabIndex={0}>+{extraTags.length}</Badge>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
      <Table.Td style={cell}>
        <Text size="sm" component="time" dateTime={flag.createdAt} title={exactTime(flag.createdAt)}>{relativeTime(flag.createdAt, now)}</Text>
      </Table.Td>
      <Table.Td style={cell}>
        {seen
          ? <Text size="sm" component="time" dateTime={seen} title={exactTime(seen)}>{relativeTime(seen, now)}</Text>
          : <Text size="sm" c="dimmed">never</Text>}
      </Table.Td>
      {environments.map((env) => (
        <Table.Td key={env}>
          <Switch aria-label={`${flag.name} in ${env}`} checked={byEnv.get(env) ?? false} disabled={!canSwitch[env]}
            onChange={(e) => onSwitch(flag.name, env, e.currentTarget.checked)} />
        </Table.Td>
      ))}
    </Table.Tr>
  );
});
