import { Table } from '@mantine/core';
import { memo } from 'react';
import { Link } from 'react-router';
import classes from '../../components/flags/FlagTable.module.css';
import { useVirtualRows } from '../../components/flags/useVirtualRows';
import type { EveryFlag } from '../../data/every-flag';
import { LIFECYCLE_LABELS } from '../../logic/every-flag';
import { relativeTime } from '../../logic/flag-list';
import { links } from '../../routing/links';

const ROW_HEIGHT = 48;
const HEADER_HEIGHT = 40;
const COLUMNS = 7;

/**
 * Every flag shown, its rows rendered only around the visible part of the scroll container (@tanstack/react-virtual);
 * spacer rows stand for the rest, so the table keeps its semantics (aria-rowcount and aria-rowindex tell a screen
 * reader where it is in the whole list).
 */
export function EveryFlagTable({ flags, now }: { flags: EveryFlag[]; now: number }) {
  const { scrollRef, items, top, bottom } = useVirtualRows(flags.length, (i) => flags[i].name, ROW_HEIGHT, HEADER_HEIGHT);
  return (
    <div ref={scrollRef} style={{ maxHeight: 'max(360px, calc(100vh - 320px))', overflow: 'auto', contain: 'content' }}>
      <Table stickyHeader layout="fixed" highlightOnHover aria-label="Every flag" aria-rowcount={flags.length + 1} miw={900}>
        <Table.Thead>
          <Table.Tr h={HEADER_HEIGHT} aria-rowindex={1}>
            <Table.Th w="30%">Name</Table.Th>
            <Table.Th w={140}>Project</Table.Th>
            <Table.Th w={110}>Type</Table.Th>
            <Table.Th w={110}>Lifecycle</Table.Th>
            <Table.Th w={140}>Staleness</Table.Th>
            <Table.Th>Tags</Table.Th>
            <Table.Th w={120}>Last seen</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && <tr aria-hidden="true"><td colSpan={COLUMNS} style={{ height: top, padding: 0, border: 0 }} /></tr>}
          {items.map((item) => <EveryFlagRow key={item.key} index={item.index} flag={flags[item.index]} now={now} />)}
          {bottom > 0 && <tr aria-hidden="true"><td colSpan={COLUMNS} style={{ height: bottom, padding: 0, border: 0 }} /></tr>}
        </Table.Tbody>
      </Table>
    </div>
  );
}

const EveryFlagRow = memo(function EveryFlagRow({ index, flag, now }: { index: number; flag: EveryFlag; now: number }) {
  return (
    <tr className={classes.row} aria-rowindex={index + 2}>
      <td className={classes.cell}>
        <Link className={classes.link} to={links.flag(flag.project, flag.name)} title={flag.description ?? undefined}>{flag.name}</Link>
      </td>
      <td className={classes.cell}><Link to={links.project(flag.project)}>{flag.project}</Link></td>
      <td className={classes.cell}>{flag.type}</td>
      <td className={classes.cell}>{LIFECYCLE_LABELS[flag.stage] ?? flag.stage}</td>
      <td className={classes.cell}>
        {flag.stale ? <span className={classes.stale}>stale</span> : flag.potentiallyStale ? 'potentially stale' : <span className={classes.dimmed}>—</span>}
      </td>
      <td className={classes.cell}>
        {flag.tags.map((t) => <span key={`${t.type}:${t.value}`} className={classes.tag}>{t.type}:{t.value}</span>)}
      </td>
      <td className={classes.cell}>
        {flag.lastSeenAt ? <time dateTime={flag.lastSeenAt}>{relativeTime(flag.lastSeenAt, now)}</time> : <span className={classes.dimmed}>never</span>}
      </td>
    </tr>
  );
});
