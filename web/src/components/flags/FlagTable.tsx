import { Checkbox, Switch, Table, UnstyledButton } from '@mantine/core';
import { memo, useEffect, useState } from 'react';
import { Link } from 'react-router';
import classes from './FlagTable.module.css';
import { useVirtualRows } from './useVirtualRows';
import { lastSeen, relativeTime, type FlagListItem, type SortDirection, type SortKey } from '../../logic/flag-list';
import { SEEN_LABELS, seenLevel } from '../../logic/last-seen';
import { Sparkline } from './Sparkline';
import { links } from '../../routing/links';

/** Every row has this height, so the virtualiser never measures (scrolling 1000 rows does no layout reads). */
export const ROW_HEIGHT = 48;
const HEADER_HEIGHT = 40;
const SHOWN_TAGS = 2;

export interface FlagRowData extends FlagListItem {
  description?: string | null;
  /** Its last 24 hours of evaluations per hour (a sparkline column when the table has `exposure`). */
  exposure?: { totals: readonly number[] } | null;
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
  /** With it, a first column of checkboxes ("Select <flag>", and "Select all shown" in the header). */
  selection?: FlagSelection;
  /** With it, a column of each flag's last 24 hours as a sparkline (`exposure` of the rows). */
  exposure?: boolean;
}

export interface FlagSelection {
  selected: ReadonlySet<string>;
  onSelect: (flag: string, selected: boolean) => void;
  /** Ticks or clears every shown row. */
  onSelectShown: (selected: boolean) => void;
}

const exactTime = (iso: string) => new Date(iso).toLocaleString();

/** Now, to the minute: relative times stay current, and rows (memoised) re-render once a minute, not on every scroll. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The project's flags as a table whose rows are rendered only around the visible part of its scroll container
 * (@tanstack/react-virtual): two spacer rows stand for the rest, so the table keeps its semantics (header row,
 * aria-rowcount and aria-rowindex tell a screen reader where it is in the whole list).
 */
export function FlagTable({ projectId, flags, environments, canSwitch, sort, onSort, onSwitch, selection, exposure = false }: FlagTableProps) {
  const { scrollRef, items, top, bottom } = useVirtualRows(flags.length, (i) => flags[i].name, ROW_HEIGHT, HEADER_HEIGHT);
  const columns = 5 + environments.length + (selection ? 1 : 0) + (exposure ? 1 : 0);
  const selectedShown = selection ? flags.filter((f) => selection.selected.has(f.name)).length : 0;
  const now = useMinuteClock();

  const header = (key: SortKey, label: string, width?: number | string) => (
    <Table.Th w={width} aria-sort={sort.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <UnstyledButton onClick={() => onSort(key)} fw={700} fz="sm" aria-label={`Sort by ${label.toLowerCase()}`}>
        {label} {sort.key === key ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );

  return (
    <div ref={scrollRef} data-testid="flag-scroll" style={{ maxHeight: 'max(360px, calc(100vh - 300px))', overflow: 'auto', contain: 'content' }}>
      <Table stickyHeader layout="fixed" highlightOnHover aria-label="Flags" aria-rowcount={flags.length + 1} miw={720 + environments.length * 110 + (selection ? 44 : 0) + (exposure ? 96 : 0)}>
        <Table.Thead>
          <Table.Tr h={HEADER_HEIGHT} aria-rowindex={1}>
            {selection && (
              <Table.Th w={44}>
                <Checkbox aria-label="Select all shown" checked={flags.length > 0 && selectedShown === flags.length}
                  indeterminate={selectedShown > 0 && selectedShown < flags.length} disabled={flags.length === 0}
                  onChange={(e) => selection.onSelectShown(e.currentTarget.checked)} />
              </Table.Th>
            )}
            {header('name', 'Name', '32%')}
            {header('type', 'Type', 120)}
            <Table.Th>Tags</Table.Th>
            {header('createdAt', 'Created', 120)}
            {header('lastSeen', 'Last seen', 130)}
            {exposure && <Table.Th w={96} title="Evaluations per hour over the last 24 hours">24 h</Table.Th>}
            {environments.map((env) => <Table.Th key={env} w={110}>{env}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && <tr aria-hidden="true"><td colSpan={columns} style={{ height: top, padding: 0, border: 0 }} /></tr>}
          {items.map((item) => (
            <FlagRow key={item.key} index={item.index} flag={flags[item.index]} projectId={projectId} environments={environments}
              canSwitch={canSwitch} onSwitch={onSwitch} now={now} exposure={exposure}
              selected={selection ? selection.selected.has(flags[item.index].name) : undefined} onSelect={selection?.onSelect} />
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
  exposure: boolean;
  /** Undefined when the table has no selection column. */
  selected?: boolean;
  onSelect?: FlagSelection['onSelect'];
}

/** One flag, in plain elements but its switches; memoised, so switching one flag re-renders that row alone. */
const FlagRow = memo(function FlagRow({ index, flag, projectId, environments, canSwitch, onSwitch, now, exposure, selected, onSelect }: FlagRowProps) {
  const seen = lastSeen(flag);
  const level = seenLevel(seen, now);
  const byEnv = new Map(flag.environments.map((e) => [e.name, e.enabled]));
  const extraTags = flag.tags.slice(SHOWN_TAGS);
  return (
    <tr className={classes.row} aria-rowindex={index + 2}>
      {onSelect && (
        <td className={classes.cell}>
          <Checkbox aria-label={`Select ${flag.name}`} checked={selected ?? false} onChange={(e) => onSelect(flag.name, e.currentTarget.checked)} />
        </td>
      )}
      <td className={classes.cell}>
        <span className={classes.name}>
          <Link className={classes.link} to={links.flag(projectId, flag.name)} title={flag.description ?? undefined}>
            {flag.name}
          </Link>
          {flag.stale && <span className={classes.stale}>stale</span>}
        </span>
      </td>
      <td className={classes.cell}>{flag.type}</td>
      <td className={classes.cell}>
        {flag.tags.slice(0, SHOWN_TAGS).map((t) => <span key={`${t.type}:${t.value}`} className={classes.tag}>{t.type}:{t.value}</span>)}
        {extraTags.length > 0 && (
          <span className={classes.tag} title={extraTags.map((t) => `${t.type}:${t.value}`).join(', ')}>+{extraTags.length}</span>
        )}
      </td>
      <td className={classes.cell}>
        <time dateTime={flag.createdAt} title={exactTime(flag.createdAt)}>{relativeTime(flag.createdAt, now)}</time>
      </td>
      <td className={classes.cell}>
        {/* The colour says how recent at a glance; the text says it in words (the colour alone tells a screen reader nothing). */}
        <span className={classes.seen} data-seen={level} title={SEEN_LABELS[level]} aria-hidden="true" />
        {seen ? <time dateTime={seen} title={`${exactTime(seen)}: ${SEEN_LABELS[level]}`}>{relativeTime(seen, now)}</time> : <span className={classes.dimmed}>never</span>}
      </td>
      {exposure && (
        <td className={classes.cell}>
          {flag.exposure ? <Sparkline values={flag.exposure.totals} className={classes.sparkline} /> : <span className={classes.dimmed}>—</span>}
        </td>
      )}
      {environments.map((env) => (
        <td key={env} className={classes.cell}>
          <Switch aria-label={`${flag.name} in ${env}`} checked={byEnv.get(env) ?? false} disabled={!canSwitch[env]}
            onChange={(e) => onSwitch(flag.name, env, e.currentTarget.checked)} />
        </td>
      ))}
    </tr>
  );
});
