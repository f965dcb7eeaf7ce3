import { Badge, Button, Code, Collapse, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId } from 'react';
import type { LiveEvent } from '../../api/live-events';
import { jsonChanges } from '../../logic/json-diff';
import { TableHead } from '../../components/TableHead';

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** One audit event: what, to which flag, where, by whom and when; its data and what it changed on demand. */
export function EventItem({ event, fresh }: { event: LiveEvent; fresh?: boolean }) {
  const [opened, { toggle }] = useDisclosure(false);
  const panelId = useId();
  const hasData = event.data != null || event.preData != null;
  return (
    <Paper component="li" withBorder p="sm" radius="sm" data-event-id={event.id} aria-label={`Event ${event.id}: ${event.type}${event.featureName ? ` on ${event.featureName}` : ''}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            {event.featureName && <Text fw={600}>{event.featureName}</Text>}
            <Code>{event.type}</Code>
            {fresh && <Badge size="sm" variant="light" color="#0b6b5f" tt="none">new</Badge>}
          </Group>
          <Text size="sm" c="dimmed">
            {event.project ? <>project <b>{event.project}</b> · </> : null}
            {event.environment ? <>environment <b>{event.environment}</b> · </> : null}
            by <b>{event.createdBy}</b> · <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
          </Text>
        </Stack>
        {hasData && (
          <Button variant="subtle" size="xs" onClick={toggle} aria-expanded={opened} aria-controls={panelId}
            aria-label={`${opened ? 'Hide' : 'Show'} data of event ${event.id}`}>
            {opened ? 'Hide data' : 'Show data'}
          </Button>
        )}
      </Group>
      {hasData && (
        <Collapse in={opened} id={panelId}>
          {opened && <EventData event={event} />}
        </Collapse>
      )}
    </Paper>
  );
}

function EventData({ event }: { event: LiveEvent }) {
  const both = event.data != null && event.preData != null;
  const changes = both ? jsonChanges(event.preData, event.data) : [];
  return (
    <Stack gap="xs" mt="sm">
      {both && (
        <>
          <Text size="sm" fw={600}>Changed</Text>
          {changes.length === 0 ? <Text size="sm" c="dimmed">Nothing differs between the previous and the new data.</Text> : (
            <Table withTableBorder fz="sm" aria-label={`Changes of event ${event.id}`}>
              <TableHead columns={['Field', 'Before', 'After']} />
              <Table.Tbody>
                {changes.map((c) => (
                  <Table.Tr key={c.path}>
                    <Table.Td><Code>{c.path}</Code></Table.Td>
                    <Table.Td>{c.before === undefined ? <Text span c="dimmed" size="sm">(absent)</Text> : <Code>{c.before}</Code>}</Table.Td>
                    <Table.Td>{c.after === undefined ? <Text span c="dimmed" size="sm">(absent)</Text> : <Code>{c.after}</Code>}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
      <SimpleGrid cols={{ base: 1, md: both ? 2 : 1 }}>
        {event.preData != null && (
          <div>
            <Text size="sm" fw={600}>Previous data</Text>
            <Code block tabIndex={0} role="region" aria-label={`Previous data of event ${event.id}`}>{pretty(event.preData)}</Code>
          </div>
        )}
        {event.data != null && (
          <div>
            <Text size="sm" fw={600}>Data</Text>
            <Code block tabIndex={0} role="region" aria-label={`Data of event ${event.id}`}>{pretty(event.data)}</Code>
          </div>
        )}
      </SimpleGrid>
    </Stack>
  );
}
