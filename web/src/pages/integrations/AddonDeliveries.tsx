import { Badge, Button, Code, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAddonDeliveries, useRedeliver } from '../../data/integrations';
import { deliveryStatusColor, deliverySummary } from '../../logic/addon-form';
import { When } from './shared';
import { TableHead } from '../../components/TableHead';

/** An addon's recent deliveries, newest first: status, attempts, the last answer or error; redeliver where allowed. */
export function AddonDeliveries({ addonId, label, canRedeliver }: { addonId: number; label: string; canRedeliver: boolean }) {
  const deliveries = useAddonDeliveries(addonId);
  const redeliver = useRedeliver(addonId);
  const rows = deliveries.data?.pages.flatMap((p) => p.addon.deliveries.nodes) ?? [];
  const headingId = `deliveries-${addonId}`;

  return (
    <section aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId} mt="sm" mb="xs">Recent deliveries<VisuallyHidden> of {label}</VisuallyHidden></Title>
      <ErrorNotice error={deliveries.error} />
      <ErrorNotice error={redeliver.error} />
      {deliveries.isPending && <Loader size="sm" aria-label={`Loading deliveries of ${label}`} />}
      {deliveries.data && rows.length === 0 && <Text size="sm" c="dimmed">Nothing delivered yet: deliveries appear when an event it listens to happens.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table verticalSpacing={4} fz="sm" aria-label={`Deliveries of ${label}`}>
            <TableHead columns={['Status', 'Event', 'Created', { label: 'Attempts', ta: 'right' }, 'Last answer', 'Last error', { label: 'Actions', hidden: true }]} />
            <Table.Tbody>
              {rows.map((d) => {
                const summary = deliverySummary(d.attempts);
                return (
                  <Table.Tr key={d.id} data-delivery={d.id}>
                    <Table.Td>
                      <Badge variant="light" color={deliveryStatusColor(d.status)}>{d.status}</Badge>
                      {d.status === 'pending' && d.nextAttemptAt && <Text size="xs" c="dimmed">next try <When iso={d.nextAttemptAt} /></Text>}
                    </Table.Td>
                    <Table.Td>
                      <Code>{d.eventType}</Code> <Text span size="xs" c="dimmed">#{d.eventId}</Text>
                      {d.redeliveryOf && <Text size="xs" c="dimmed">sent again</Text>}
                    </Table.Td>
                    <Table.Td><When iso={d.createdAt} /></Table.Td>
                    <Table.Td ta="right">{summary.attempts}</Table.Td>
                    <Table.Td>{summary.lastStatusCode !== null ? `HTTP ${summary.lastStatusCode}` : summary.attempts > 0 ? 'no answer' : '—'}</Table.Td>
                    <Table.Td style={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{summary.lastError ?? '—'}</Table.Td>
                    <Table.Td>
                      {canRedeliver && d.status !== 'pending' && (
                        <Button size="compact-xs" variant="default" loading={redeliver.isPending && redeliver.variables === d.id}
                          aria-label={`Redeliver event ${d.eventId} (${d.eventType})`} onClick={() => redeliver.mutate(d.id)}>Redeliver</Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {deliveries.hasNextPage && (
        <Group mt="xs">
          <Button size="xs" variant="subtle" loading={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>Show older deliveries</Button>
        </Group>
      )}
    </section>
  );
}
