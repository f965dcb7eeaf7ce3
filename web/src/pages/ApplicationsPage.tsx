import { Anchor, Badge, Group, Loader, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { useApplications } from '../data/data';
import { links } from '../routing/links';
import { AppDot } from './data/AppDot';
import { When } from './data/When';
import { TableHead } from '../components/TableHead';

const distinct = (list: Array<string | null | undefined>) => [...new Set(list.filter((s): s is string => !!s))].sort();

/**
 * `/applications`: the SDK applications that registered or reported metrics (or an admin created), with their
 * strategies, their instances' SDK versions and environments, and when one last reported.
 */
export default function ApplicationsPage() {
  const apps = useApplications();
  return (
    <>
      <Title order={1}>Applications</Title>
      <Text c="dimmed" size="sm" mb="md">SDKs register when they start and report which flags they evaluated; each application is listed with its running instances.</Text>
      <ErrorNotice error={apps.error} />
      {apps.isPending && <Loader aria-label="Loading applications" />}
      {apps.data && apps.data.applications.length === 0 && (
        <Text c="dimmed">No application has reported yet. Start an SDK with a client token (see API tokens) and it appears here.</Text>
      )}
      {apps.data && apps.data.applications.length > 0 && (
        <Table highlightOnHover verticalSpacing="sm" aria-label="Applications">
          <TableHead columns={['Application', 'Strategies', { label: 'Instances', ta: 'right' }, 'SDKs', 'Environments', 'Last seen']} />
          <Table.Tbody>
            {apps.data.applications.map((a) => (
              <Table.Tr key={a.appName}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <AppDot color={a.color} />
                    <Anchor component={Link} to={links.application(a.appName)} fw={500}>{a.appName}</Anchor>
                  </Group>
                  {a.description && <Text size="xs" c="dimmed" lineClamp={2}>{a.description}</Text>}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>{a.strategies.map((s) => <Badge key={s} variant="light" color="gray" tt="none">{s}</Badge>)}</Group>
                </Table.Td>
                <Table.Td ta="right">{a.instances.length}</Table.Td>
                <Table.Td><Text size="sm">{distinct(a.instances.map((i) => i.sdkVersion)).join(', ') || '—'}</Text></Table.Td>
                <Table.Td><Text size="sm">{distinct(a.instances.map((i) => i.environment)).join(', ') || '—'}</Text></Table.Td>
                <Table.Td>
                  {a.lastSeen ? <Text size="sm"><When iso={a.lastSeen} /></Text> : <Text size="sm" c="dimmed">never</Text>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
