import { Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { useGroups, useProjectAccess, useRemoveProjectAccess, useUsers } from '../../data/access';
import { useAllowed } from '../../data/session';
import { accessRows, roleNames, type AccessRow } from '../../logic/access';
import { AccessTable } from '../access/AccessTable';
import { AddAccessModal, ChangeRolesModal } from '../access/ProjectAccessModals';
import { RowActions } from '../access/RowActions';

/** `/projects/:projectId/access`: the users and groups holding roles in the project; add, change roles, remove. */
export default function ProjectAccessPage() {
  const projectId = useParams().projectId ?? '';
  const { can } = useAllowed(projectId);
  const admin = useAllowed().can('ADMIN');
  const mayChange = can('UPDATE_PROJECT');
  const project = useProjectAccess(projectId);
  // The people to add: every user (an admin's list) and every group.
  const users = useUsers(mayChange && admin);
  const groups = useGroups();
  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<AccessRow | null>(null);
  const remove = useConfirm(useRemoveProjectAccess(projectId), {
    title: (row) => `Remove ${row.label}`,
    message: (row) => (row.kind === 'group'
      ? 'The group and its members lose the roles they held in this project through it.'
      : 'The user loses the roles they held in this project directly.'),
    confirmLabel: 'Remove access',
  });

  const access = project.data?.project.access;
  const rows = access ? accessRows(access.users, access.groups) : [];
  const roles = access?.roles ?? [];

  return (
    <>
      <Group justify="space-between" mb="xs">
        <Title order={1}>{project.data ? `${project.data.project.name}: access` : 'Project access'}</Title>
        <Can permission="UPDATE_PROJECT" project={projectId}><Button onClick={() => setAdding(true)}>Add access</Button></Can>
      </Group>
      <ProjectNav projectId={projectId} />
      <ErrorNotice error={project.error} />
      {project.isPending && <Loader aria-label="Loading the project's access" />}
      {access && (rows.length === 0 ? (
        <Text c="dimmed">Nobody holds a role in this project yet.</Text>
      ) : (
        <AccessTable highlightOnHover label="Project access" columns={['User or group', 'Roles']} actions={mayChange}>
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
                <RowActions actions={[
                  { label: 'Change roles', name: `Change roles of ${row.label}`, onClick: () => setChanging(row) },
                  { label: 'Remove', name: `Remove ${row.label}`, onClick: () => remove.ask(row), danger: true },
                ]} />
              )}
            </Table.Tr>
          ))}
        </AccessTable>
      ))}
      {mayChange && (
        <>
          <ErrorNotice error={users.error} title="The users to add could not be read" />
          <ErrorNotice error={groups.error} title="The groups to add could not be read" />
          {adding && <AddAccessModal project={projectId} onClose={() => setAdding(false)} roles={roles} rows={rows}
            users={users.data?.users} groups={groups.data?.groups} />}
          {changing && <ChangeRolesModal key={`${changing.kind}-${changing.id}`} project={projectId} row={changing} onClose={() => setChanging(null)} roles={roles} />}
        </>
      )}
      {remove.dialog}
    </>
  );
}
