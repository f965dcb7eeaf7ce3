import { Anchor, Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { gql } from '../api/client';
import { useAllowed } from '../data/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { NewProjectModal } from '../components/projects/NewProjectModal';
import { graphql } from '../gql';
import { links } from '../routing/links';

const ProjectsQuery = graphql(`
  query Projects {
    projects { id name description health featureCount memberCount }
  }
`);

// The colour is the badge's dot; its text keeps the page's text colour (AA contrast whatever the colour).
const healthColor = (health: number) => (health >= 75 ? 'green' : health >= 50 ? 'yellow' : 'red');

/** `/projects`: every project with its health, flag count and members; "New project" for those who may create one. */
export default function ProjectsPage() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsQuery) });
  const { can } = useAllowed();
  const [creating, { open, close }] = useDisclosure(false);
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Projects</Title>
        {can('CREATE_PROJECT') && <Button onClick={open}>New project</Button>}
      </Group>
      <ErrorNotice error={projects.error} />
      {projects.isPending && <Loader aria-label="Loading projects" />}
      {projects.data && (
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Project</Table.Th>
              <Table.Th>Health</Table.Th>
              <Table.Th ta="right">Flags</Table.Th>
              <Table.Th ta="right">Members</Table.Th>
            </Table.Tr>
          </Table.Thead>
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
      <NewProjectModal opened={creating} onClose={close} />
    </>
  );
}
