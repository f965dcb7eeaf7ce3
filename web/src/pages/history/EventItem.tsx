import { Anchor, Badge, Button, Code, Collapse, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId } from 'react';
import { Link } from 'react-router';
import type { LiveEvent } from '../../api/live-events';
import { jsonChanges } from '../../logic/json-diff';
import { TableHead } from '../../components/TableHead';
import { links } from '../../routing/links';

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * One audit event: what, to which flag, where, by whom and when; its data and what it changed on demand; for a flag's
 * event, a link to the version it made in the flag's history, and for a revert's, the version it brought back.
 */
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
            {event.revertOf && (
              <Badge size="sm" variant="light" color="orange" tt="none">
                Revert of version {event.revertOf.version}{event.revertOf.eventId != null ? ` (undoing event ${event.revertOf.eventId})` : ''}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {event.project ? <>project <b>{event.project}</b> · </> : null}
            {event.environment ? <>environment <b>{event.environment}</b> · </> : null}
            by <b>{event.createdBy}</b> · <time dateTime={event.createdAt}>{formatTime(event.createdAt)}</time>
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {event.featureName && event.project && (
            <Anchor component={Link} size="sm" to={links.flagHistory(event.project, event.featureName, event.id)}
              aria-label={`View change of event ${event.id} in the history of ${event.featureName}`} style={{ whiteSpace: 'nowrap' }}>
              View change
            </Anchor>
          )}
          {hasData && (
            <Button variant="subtle" size="xs" onClick={toggle} aria-expanded={opened} aria-controls={panelId}
              aria-label={`${opened ? 'Hide' : 'Show'} data of event ${event.id}`}>
              {opened ? 'Hide data' : 'Show data'}
            </Button>
          )}
        </Group>
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
