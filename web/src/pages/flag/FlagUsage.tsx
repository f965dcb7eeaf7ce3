import { Anchor, Card, Group, Loader, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useFlagUsage } from '../../data/flags/flag';
import { relativeTime } from '../../logic/flag-list';
import { onShare, usageRows } from '../../logic/usage';
import { links } from '../../routing/links';

const count = (c: { yes: number; no: number }) => `${c.yes.toLocaleString()} / ${c.no.toLocaleString()}`;

/**
 * What SDKs reported of the flag: per environment, when it was last evaluated and how often to on (yes) and off (no)
 * in the last hour and the last 24 hours, and the applications that evaluated it.
 */
export function FlagUsage({ featureName }: { featureName: string }) {
  const usage = useFlagUsage(featureName);
  const rows = usage.data ? usageRows(usage.data.feature.environments, usage.data.featureUsage.lastHourUsage, usage.data.feature.metrics) : [];
  const apps = usage.data?.featureUsage.seenApplications ?? [];
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-usage">
      <Title order={2} size="h4" id="flag-usage" mb="sm">Usage</Title>
      <ErrorNotice error={usage.error} />
      {usage.isPending && <Loader size="sm" aria-label="Loading usage" />}
      {usage.data && (
        <>
          <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" aria-label="Usage by environment">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Environment</Table.Th>
                <Table.Th>Last seen</Table.Th>
                <Table.Th title="Evaluations to on / off in the last hour">Hour yes / no</Table.Th>
                <Table.Th title="Evaluations to on / off in the last 24 hours">24 h yes / no</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.environment}>
                  <Table.Td>{r.environment}</Table.Td>
                  <Table.Td>
                    {r.lastSeenAt ? <time dateTime={r.lastSeenAt} title={new Date(r.lastSeenAt).toLocaleString()}>{relativeTime(r.lastSeenAt)}</time> : <Text span size="sm" c="dimmed">never</Text>}
                  </Table.Td>
                  <Table.Td>{count(r.hour)}</Table.Td>
                  <Table.Td title={onShare(r.day)}>{count(r.day)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="sm" fw={500} mt="sm">Applications (last 24 hours)</Text>
          {apps.length === 0 ? <Text size="sm" c="dimmed">No SDK reported this flag in the last day.</Text> : (
            <Group gap="xs">
              {apps.map((a) => <Anchor key={a} component={Link} to={links.application(a)} size="sm">{a}</Anchor>)}
            </Group>
          )}
        </>
      )}
    </Card>
  );
}
