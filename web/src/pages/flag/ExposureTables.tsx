import { Box, Table, Text } from '@mantine/core';
import { countText, momentText, describeChange, periodLabel, tableRows, variantText, type Exposure } from '../../logic/exposure';

/**
 * The exposure chart's numbers and markers as tables (issue 44): what a screen reader, a keyboard or a copy-paste gets
 * of the chart. Periods without evaluations are left out of the counts (the chart draws them as gaps).
 */
export function ExposureTables({ exposure }: { exposure: Exposure }) {
  const rows = tableRows(exposure);
  const spansDays = exposure.periods.length > 24;
  const unit = exposure.granularity === 'day' ? 'Day' : 'Hour';
  return (
    <>
      <Text size="sm" fw={600} mt="md" id="exposure-counts-caption">Evaluations by {unit.toLowerCase()}</Text>
      {rows.length === 0 ? <Text size="sm" c="dimmed">No evaluations in this window.</Text> : (
        // A scrolling box reachable by keyboard (a month of hours is long); the table keeps its own name.
        <Box mah={320} style={{ overflow: 'auto' }} tabIndex={0} role="group" aria-labelledby="exposure-counts-caption">
          <Table stickyHeader verticalSpacing={4} horizontalSpacing="xs" fz="sm" aria-label={`Exposure by ${unit.toLowerCase()}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Environment</Table.Th>
                <Table.Th>{unit}</Table.Th>
                <Table.Th ta="right">On (yes)</Table.Th>
                <Table.Th ta="right">Off (no)</Table.Th>
                <Table.Th>Variants</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.environment} ${r.timestamp}`} data-period={r.timestamp} data-environment={r.environment}>
                  <Table.Td>{r.environment}</Table.Td>
                  <Table.Td><time dateTime={r.timestamp}>{periodLabel(r.timestamp, exposure.granularity, spansDays)}</time></Table.Td>
                  <Table.Td ta="right">{countText(r.yes)}</Table.Td>
                  <Table.Td ta="right">{countText(r.no)}</Table.Td>
                  <Table.Td>{variantText(r.variants)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
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
