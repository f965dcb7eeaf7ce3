import { Box, Table, Text } from '@mantine/core';
import cells from '../../components/flags/FlagTable.module.css';
import { useVirtualRows } from '../../components/flags/useVirtualRows';
import { countText, describeChange, momentText, periodLabel, tableRows, variantText, type Exposure, type ExposureBucket } from '../../logic/exposure';
import classes from './ExposureTables.module.css';

/**
 * The exposure chart's numbers and markers as tables (issue 44): what a screen reader, a keyboard or a copy-paste gets
 * of the chart. Periods without evaluations are left out of the counts (the chart draws them as gaps).
 */
export function ExposureTables({ exposure }: { exposure: Exposure }) {
  const rows = tableRows(exposure);
  const unit = exposure.granularity === 'day' ? 'Day' : 'Hour';
  return (
    <>
      <Text size="sm" fw={600} mt="md" id="exposure-counts-caption">Evaluations by {unit.toLowerCase()}</Text>
      {rows.length === 0 ? <Text size="sm" c="dimmed">No evaluations in this window.</Text> : <CountsTable exposure={exposure} rows={rows} unit={unit} />}
      <Text size="sm" fw={600} mt="md">Changes in this window</Text>
      {exposure.changes.length === 0 ? <Text size="sm" c="dimmed">The flag was not switched, nor its strategies or variants changed, in this window.</Text> : (
        <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" aria-label="Changes in this window">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>By</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {exposure.changes.map((c) => (
              <Table.Tr key={c.id} data-change-type={c.type}>
                <Table.Td><time dateTime={c.createdAt}>{momentText(c.createdAt)}</time></Table.Td>
                <Table.Td>{describeChange(c)}</Table.Td>
                <Table.Td>{c.createdBy}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}

const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 34;

/**
 * The counts, a row per environment and period with evaluations: a month of hours is 1,440 rows, so only those around
 * the visible part of the scrolling box are rendered (spacer rows stand for the rest; aria-rowcount and aria-rowindex
 * tell a screen reader where it is), in plain elements.
 */
function CountsTable({ exposure, rows, unit }: { exposure: Exposure; rows: ExposureBucket[]; unit: string }) {
  const { scrollRef, items, top, bottom } = useVirtualRows(rows.length, (i) => `${rows[i].environment} ${rows[i].timestamp}`, ROW_HEIGHT, HEADER_HEIGHT);
  const spansDays = exposure.periods.length > 24;
  return (
    // A scrolling box reachable by keyboard; the table keeps its own name.
    <Box ref={scrollRef} mah={320} style={{ overflow: 'auto', contain: 'content' }} tabIndex={0} role="group" aria-labelledby="exposure-counts-caption">
      <Table stickyHeader layout="fixed" aria-label={`Exposure by ${unit.toLowerCase()}`} aria-rowcount={rows.length + 1}>
        <Table.Thead>
          <Table.Tr h={HEADER_HEIGHT} aria-rowindex={1}>
            <Table.Th w="22%">Environment</Table.Th>
            <Table.Th w="22%">{unit}</Table.Th>
            <Table.Th ta="right">On (yes)</Table.Th>
            <Table.Th ta="right">Off (no)</Table.Th>
            <Table.Th w="30%">Variants</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && <tr aria-hidden="true"><td colSpan={5} style={{ height: top, padding: 0, border: 0 }} /></tr>}
          {items.map((item) => {
            const r = rows[item.index];
            return (
              <tr key={item.key} className={classes.countRow} aria-rowindex={item.index + 2} data-period={r.timestamp} data-environment={r.environment}>
                <td className={cells.cell}>{r.environment}</td>
                <td className={cells.cell}><time dateTime={r.timestamp}>{periodLabel(r.timestamp, exposure.granularity, spansDays)}</time></td>
                <td className={`${cells.cell} ${classes.number}`}>{countText(r.yes)}</td>
                <td className={`${cells.cell} ${classes.number}`}>{countText(r.no)}</td>
                <td className={cells.cell}>{variantText(r.variants)}</td>
              </tr>
            );
          })}
          {bottom > 0 && <tr aria-hidden="true"><td colSpan={5} style={{ height: bottom, padding: 0, border: 0 }} /></tr>}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
