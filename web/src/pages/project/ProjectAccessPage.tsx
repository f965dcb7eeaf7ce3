import { Badge, Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { graphql } from '../../gql';
import { accessRows, roleNames, type AccessRow } from '../../logic/access';
import { AddAccessModal, ChangeRolesModal, useRemoveAccess } from '../access/ProjectAccessModals';
import { accessKeys, useGroups, useUsers } from '../access/queries';

const ProjectAccessQuery = graphql(`
  query AccessProjectAccess($id: String!) {
    project(id: $id) {
      id name
      access {
        roles { id name type description }
        users { id name username email roles }
        groups { id name roles users { user { id } } }
      }
    }
  }
`);

/** `/projects/:projectId/access`: the users and groups holding roles in the project; add, change roles, remove. */
export default function ProjectAccessPage() {
  const projectId = useParams().projectId ?? '';
  const { can } = useAllowed(projectId);
  const admin = useAllowed().can('ADMIN');
  const mayChange = can('UPDATE_PROJECT');
  const project = useQuery({ queryKey: accessKeys.projectAccess(projectId), queryFn: () => gql(ProjectAccessQuery, { id: projectId }) });
  // The people to add: every user (an admin's list) and every group.
  const users = useUsers(mayChange && admin);
  const groups = useGroups();
  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<AccessRow | null>(null);
  const [removing, setRemoving] = useState<AccessRow | null>(null);
  const remove = useRemoveAccess(projectId);

  const access = project.data?.project.access;
  const rows = access ? accessRows(access.users, access.groups) : [];
  const roles = access?.roles ?? [];

  return (
    <>
      <Group justify="space-between" mb="xs">
        <Title order={1}>{project.data ? `${project.data.project.name}: access` : 'Project access'}</Title>
        {mayChange && <Button onClick={() => setAdding(true)}>Add access</Button>}
      </Group>
      <ProjectNav projectId={projectId} />
      <ErrorNotice error={project.error} />
      {project.isPending && <Loader aria-label="Loading the project's access" />}
      {access && (rows.length === 0 ? (
        <Text c="dimmed">Nobody holds a role in this project yet.</Text>
      ) : (
        <Table highlightOnHover verticalSpacing="xs" aria-label="Project access">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User or group</Table.Th>
              <Table.Th>Roles</Table.Th>
              {mayChange && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={`${row.kind}-${row.id}`}>
                <Table.Td>
                  <Group gap={6}>
                    <Badge size="sm" variant="light" color={row.kind === 'group' ? 'grape' : 'blue'}>{row.kind === 'group' ? 'Group' : 'User'}</Badge>
                    <Text fw={500} size="sm">{row.label}</Text>
                  </Group>
                  {row.detail && <Text size="xs" c="dimmed">{row.detail}</Text>}
                </Table.Td>
                <Table.Td>{roleNames(roles, row.roles)}</Table.Td>
                {mayChange && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="default" aria-label={`Change roles of ${row.label}`} onClick={() => setChanging(row)}>Change roles</Button>
                      <Button size="compact-sm" variant="light" color="red" aria-label={`Remove ${row.label}`} onClick={() => { remove.reset(); setRemoving(row); }}>Remove</Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ))}
      {mayChange && (
        <>
          <ErrorNotice error={users.error} title="The users to add could not be read" />
          <ErrorNotice error={groups.error} title="The groups to add could not be read" />
          <AddAccessModal project={projectId} opened={adding} onClose={() => setAdding(false)} roles={roles} rows={rows}
            users={users.data?.users} groups={groups.data?.groups} />
          <ChangeRolesModal project={projectId} row={changing} onClose={() => setChanging(null)} roles={roles} />
        </>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={removing ? `Remove ${removing.label}` : 'Remove access'}
        message={removing?.kind === 'group' ? 'The group and its members lose the roles they held in this project through it.' : 'The user loses the roles they held in this project directly.'}
        confirmLabel="Remove access"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing, { onSuccess: () => setRemoving(null) })}
      />
    </>
  );
}
