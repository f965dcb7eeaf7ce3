import { Anchor, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { gql } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { graphql } from '../gql';

const ProjectsQuery = graphql(`
  query Projects {
    projects { id name description health featureCount }
  }
`);

/** `/projects`: every project with its health and flag count. */
export default function ProjectsPage() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsQuery) });
  return (
    <>
      <Title order={1} mb="md">Projects</Title>
      <ErrorNotice error={projects.error} />
      <Table>
        <Table.Thead><Table.Tr><Table.Th>Project</Table.Th><Table.Th>Health</Table.Th><Table.Th>Flags</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {projects.data?.projects.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td><Anchor component={Link} to={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</Anchor></Table.Td>
              <Table.Td>{p.health}%</Table.Td>
              <Table.Td>{p.featureCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
