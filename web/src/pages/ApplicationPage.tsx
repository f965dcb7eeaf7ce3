import { Anchor, Badge, Breadcrumbs, Button, Card, Grid, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { gql } from '../api/client';
import { useAllowed } from '../data/session';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorNotice } from '../components/ErrorNotice';
import { relativeTime } from '../logic/flag-list';
import { AppDot } from './data/AppDot';
import { ApplicationDetails } from './data/ApplicationDetails';
import { DataApplicationQuery, DataDeleteApplicationMutation } from './data/queries';
import { notifyDone } from '../components/notify';
import { href, links } from '../routing/links';

const when = (iso: string | null | undefined) => (iso ? <time dateTime={iso} title={new Date(iso).toLocaleString()}>{relativeTime(iso)}</time> : '—');
const seconds = (ms: number | null | undefined) => (ms ? `${Math.round(ms / 1000)} s` : '—');

/**
 * `/applications/:appName`: one SDK application: its details (editable by those allowed), its running instances with
 * SDK version, host and last report, and the flags it evaluated in the last day, each linked to its page.
 */
export default function ApplicationPage() {
  const appName = useParams().appName ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const app = useQuery({ queryKey: ['application', appName], queryFn: () => gql(DataApplicationQuery, { appName }), refetchInterval: 60_000 });
  const { can } = useAllowed();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => gql(DataDeleteApplicationMutation, { input: { appName } }),
    onSuccess: () => {
      notifyDone(`${appName} deleted.`);
      queryClient.removeQueries({ queryKey: ['application', appName] });
      void queryClient.invalidateQueries({ queryKey: ['applications'] });
      void navigate(href('applications'));
    },
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
        {mayUpdate && <Button color="red" variant="light" onClick={() => { remove.reset(); setConfirming(true); }}>Delete application</Button>}
      </Group>
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Card withBorder radius="md" padding="md" component="section" aria-labelledby="app-instances">
              <Title order={2} size="h4" id="app-instances" mb="sm">Instances</Title>
              {a.instances.length === 0 ? <Text size="sm" c="dimmed">No instance has reported.</Text> : (
                <Table.ScrollContainer minWidth={640}>
                  <Table verticalSpacing="xs" aria-label="Instances">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Instance</Table.Th>
                        <Table.Th>Environment</Table.Th>
                        <Table.Th>SDK version</Table.Th>
                        <Table.Th>Host</Table.Th>
                        <Table.Th>Started</Table.Th>
                        <Table.Th>Interval</Table.Th>
                        <Table.Th>Last seen</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
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
      <ConfirmDialog opened={confirming} onClose={() => setConfirming(false)} title={`Delete ${a.appName}`} confirmLabel="Delete application"
        message={`${a.appName} and its instances are removed from this list. Its metrics stay until they expire, and its next report brings it back.`}
        pending={remove.isPending} error={remove.error} onConfirm={() => remove.mutate()} />
    </Stack>
  );
}
