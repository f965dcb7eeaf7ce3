import { Anchor, Group, Loader, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { useChangeRequests } from '../../data/change-requests';
import { countChanges, isOpen, requestLabel } from '../../logic/change-requests';
import { links } from '../../routing/links';
import { useUrlState } from '../../routing/useUrlState';
import { StateBadge } from './StateBadge';
import { TableHead } from '../../components/TableHead';

/** `/projects/:projectId/change-requests`: the project's requests, open ones (Draft to Scheduled) or closed ones. */
export default function ChangeRequestsPage() {
  const project = useParams().projectId ?? '';
  // Open requests unless the address says closed ones (`?show=closed`), so a link to either list shows it.
  const [{ show }, setUrl] = useUrlState(['show']);
  const shown = show === 'closed' ? 'closed' : 'open';
  const list = useChangeRequests(project);
  const all = list.data?.changeRequests ?? [];
  const open = all.filter((r) => isOpen(r.state));
  const rows = shown === 'open' ? open : all.filter((r) => !isOpen(r.state));

  return (
    <>
      <Title order={1}>Change requests</Title>
      <Text c="dimmed" size="sm">Project {project}</Text>
      <ProjectNav projectId={project} />
      <Group justify="space-between" mb="sm">
        <SegmentedControl
          aria-label="Which requests"
          value={shown}
          onChange={(v) => setUrl({ show: v === 'closed' ? v : null })}
          data={[{ value: 'open', label: `Open (${open.length})` }, { value: 'closed', label: `Closed (${all.length - open.length})` }]}
        />
      </Group>
      {list.isPending && <Loader aria-label="Loading change requests" />}
      <ErrorNotice error={list.error} />
      {list.isSuccess && rows.length === 0 && (
        <Text c="dimmed">{shown === 'open' ? 'No open change requests. Edits in an environment that needs change requests start a draft.' : 'No closed change requests yet.'}</Text>
      )}
      {rows.length > 0 && (
        <Table striped withTableBorder aria-label={shown === 'open' ? 'Open change requests' : 'Closed change requests'}>
          <TableHead columns={['Request', 'Environment', 'State', 'Changes', 'Approvals', 'Author', 'Created']} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td><Anchor component={Link} to={links.changeRequest(project, r.id)}>{requestLabel(r.id, r.title)}</Anchor></Table.Td>
                <Table.Td>{r.environment}</Table.Td>
                <Table.Td>
                  <StateBadge state={r.state} />
                  {r.schedule && (
                    <Text size="xs" c={r.schedule.status === 'failed' ? 'red' : 'dimmed'}>
                      {r.schedule.status === 'failed' ? 'failed at ' : 'at '}{new Date(r.schedule.scheduledAt).toLocaleString()}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {countChanges(r)}{' '}
                  <Text span size="xs" c="dimmed">({[...r.features.map((f) => f.name), ...r.segments.map((s) => `segment ${s.name}`)].join(', ')})</Text>
                </Table.Td>
                <Table.Td>{r.approvals.length} of {r.minApprovals}</Table.Td>
                <Table.Td>{r.createdBy.username ?? '—'}</Table.Td>
                <Table.Td>{new Date(r.createdAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
