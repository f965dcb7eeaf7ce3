import { Anchor, Badge, Breadcrumbs, Button, Card, Grid, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { Can } from '../components/Can';
import { useConfirm } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { useApplication, useDeleteApplication } from '../data/data';
import { useAllowed } from '../data/session';
import { href, links } from '../routing/links';
import { AppDot } from './data/AppDot';
import { ApplicationDetails } from './data/ApplicationDetails';
import { When } from './data/When';
import { TableHead } from '../components/TableHead';

const when = (iso: string | null | undefined) => (iso ? <When iso={iso} /> : '—');
const seconds = (ms: number | null | undefined) => (ms ? `${Math.round(ms / 1000)} s` : '—');

/**
 * `/applications/:appName`: one SDK application: its details (editable by those allowed), its running instances with
 * SDK version, host and last report, and the flags it evaluated in the last day, each linked to its page.
 */
export default function ApplicationPage() {
  const appName = useParams().appName ?? '';
  const navigate = useNavigate();
  const app = useApplication(appName);
  const { can } = useAllowed();
  const remove = useConfirm(useDeleteApplication(() => void navigate(href('applications'))), {
    title: (name) => `Delete ${name}`,
    message: (name) => `${name} and its instances are removed from this list. Its metrics stay until they expire, and its next report brings it back.`,
    confirmLabel: 'Delete application',
  });

  const crumbs = (
    <Breadcrumbs aria-label="Breadcrumb">
      <Anchor component={Link} to={href('applications')} size="sm">Applications</Anchor>
      <Text size="sm" aria-current="page">{appName}</Text>
    </Breadcrumbs>
  );
  if (app.isPending) return <Stack>{crumbs}<Title order={1}>{appName}</Title><Loader aria-label="Loading the application" /></Stack>;
  if (app.isError) return <Stack>{crumbs}<Title order={1}>{appName}</Title><ErrorNotice error={app.error} /></Stack>;
  const a = app.data.application;
  const mayUpdate = can('UPDATE_APPLICATION');

  return (
    <Stack gap="md">
      {crumbs}
      <Group justify="space-between">
        <Group gap="sm">
          <AppDot color={a.color} />
          <Title order={1}>{a.appName}</Title>
        </Group>
        <Can permission="UPDATE_APPLICATION"><Button color="red" variant="light" onClick={() => remove.ask(a.appName)}>Delete application</Button></Can>
      </Group>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Card withBorder radius="md" padding="md" component="section" aria-labelledby="app-instances">
              <Title order={2} size="h4" id="app-instances" mb="sm">Instances</Title>
              {a.instances.length === 0 ? <Text size="sm" c="dimmed">No instance has reported.</Text> : (
                <Table.ScrollContainer minWidth={640}>
                  <Table verticalSpacing="xs" aria-label="Instances">
                    <TableHead columns={['Instance', 'Environment', 'SDK version', 'Host', 'Started', 'Interval', 'Last seen']} />
                    <Table.Tbody>
                      {a.instances.map((i) => (
                        <Table.Tr key={`${i.environment}/${i.instanceId}`}>
                          <Table.Td><Text size="sm" ff="monospace">{i.instanceId}</Text></Table.Td>
                          <Table.Td>{i.environment}</Table.Td>
                          <Table.Td>{i.sdkVersion ?? '—'}</Table.Td>
                          <Table.Td>{i.clientIp ?? '—'}</Table.Td>
                          <Table.Td>{when(i.started)}</Table.Td>
                          <Table.Td>{seconds(i.interval)}</Table.Td>
                          <Table.Td>{when(i.lastSeen)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Card>
            <Card withBorder radius="md" padding="md" component="section" aria-labelledby="app-flags">
              <Title order={2} size="h4" id="app-flags" mb="sm">Flags seen in the last 24 hours</Title>
              {a.seenFeatures.length === 0 ? <Text size="sm" c="dimmed">It reported no flag in the last day.</Text> : (
                <List size="sm" spacing={4} aria-label="Flags seen">
                  {a.seenFeatures.map((f) => (
                    <List.Item key={f.name}>
                      <Anchor component={Link} to={links.flag(f.project, f.name)}>{f.name}</Anchor>
                      <Text span size="xs" c="dimmed"> in {f.project}</Text>
                      {f.archived && <Badge ml={6} size="sm" color="orange" variant="light" tt="none">archived</Badge>}
                    </List.Item>
                  ))}
                </List>
              )}
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ApplicationDetails app={a} mayUpdate={mayUpdate} />
        </Grid.Col>
      </Grid>
      {remove.dialog}
    </Stack>
  );
}
