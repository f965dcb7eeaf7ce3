import { Anchor, Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { Can } from '../components/Can';
import { ErrorNotice } from '../components/ErrorNotice';
import { NewProjectModal } from '../components/projects/NewProjectModal';
import { useProjects } from '../data/projects';
import { links } from '../routing/links';
import { TableHead } from '../components/TableHead';

// The colour is the badge's dot; its text keeps the page's text colour (AA contrast whatever the colour).
const healthColor = (health: number) => (health >= 75 ? 'green' : health >= 50 ? 'yellow' : 'red');

/** `/projects`: every project with its health, flag count and members; "New project" for those who may create one. */
export default function ProjectsPage() {
  const projects = useProjects();
  const [creating, { open, close }] = useDisclosure(false);
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Projects</Title>
        <Can permission="CREATE_PROJECT"><Button onClick={open}>New project</Button></Can>
      </Group>
      <ErrorNotice error={projects.error} />
      {projects.isPending && <Loader aria-label="Loading projects" />}
      {projects.data && (
        <Table highlightOnHover verticalSpacing="sm">
          <TableHead columns={['Project', 'Health', { label: 'Flags', ta: 'right' }, { label: 'Members', ta: 'right' }]} />
          <Table.Tbody>
            {projects.data.projects.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Anchor component={Link} to={links.project(p.id)} fw={500}>{p.name}</Anchor>
                  <Text size="xs" c="dimmed">{p.description ? `${p.id} · ${p.description}` : p.id}</Text>
                </Table.Td>
                <Table.Td><Badge variant="dot" color={healthColor(p.health)} size="lg" tt="none">{p.health}%</Badge></Table.Td>
                <Table.Td ta="right">{p.featureCount}</Table.Td>
                <Table.Td ta="right">{p.memberCount}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating && <NewProjectModal onClose={close} />}
    </>
  );
}
