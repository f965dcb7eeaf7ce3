import { Badge, Button, Card, Group, Table, Text, Title } from '@mantine/core';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useFlagEvents } from '../../data/flags/flag';
import { TableHead } from '../../components/TableHead';

/** The flag's own audit events, newest first, a page at a time ("Show more"). */
export function FlagEvents({ featureName }: { featureName: string }) {
  const events = useFlagEvents(featureName);
  const rows = events.data?.pages.flatMap((p) => p.feature.events.nodes) ?? [];
  const total = events.data?.pages[0]?.feature.events.totalCount ?? 0;

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-events">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="flag-events">Events</Title>
        {events.data && <Text size="sm" c="dimmed">{rows.length} of {total}</Text>}
      </Group>
      <ErrorNotice error={events.error} />
      {events.data && rows.length === 0 && <Text size="sm" c="dimmed">No events yet.</Text>}
      {rows.length > 0 && (
        <Table striped fz="sm" aria-label="Events of the flag">
          <TableHead columns={['When', 'Type', 'Environment', 'By']} />
          <Table.Tbody>
            {rows.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{new Date(e.createdAt).toLocaleString()}</Table.Td>
                <Table.Td><Badge variant="light" tt="none" color="gray">{e.type}</Badge></Table.Td>
                <Table.Td>{e.environment ?? '—'}</Table.Td>
                <Table.Td>{e.createdBy}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {events.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="default" size="xs" loading={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>Show more</Button>
        </Group>
      )}
    </Card>
  );
}
