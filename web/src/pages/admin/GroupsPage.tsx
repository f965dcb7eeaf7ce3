import { Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useDeleteGroup, useGroups, useRoles, useUsers, type AccessGroup } from '../../data/access';
import { useAllowed } from '../../data/session';
import { roleName } from '../../logic/access';
import { AccessTable } from '../access/AccessTable';
import { GroupFormModal, MembersModal } from '../access/GroupModals';
import { RowActions } from '../access/RowActions';

/** `/admin/groups`: groups with their root role, SSO mappings and members; create, edit, members, delete (ADMIN). */
export default function GroupsPage() {
  const admin = useAllowed().can('ADMIN');
  const groups = useGroups();
  const roles = useRoles();
  // Members are chosen from the users, which only an admin may list.
  const users = useUsers(admin);
  const [form, setForm] = useState<{ group: AccessGroup | null } | null>(null);
  const [membersOf, setMembersOf] = useState<number | null>(null);
  const remove = useConfirm(useDeleteGroup(), {
    title: (g) => `Delete ${g.name}`,
    message: () => 'The group, its memberships and the project roles it holds are deleted; its members keep their own roles.',
    confirmLabel: 'Delete group',
  });
  // The members dialog reads the group from the list as it is now, so it shows each change once saved.
  const membersGroup = groups.data?.groups.find((g) => g.id === membersOf) ?? null;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Groups</Title>
        <Can permission="ADMIN"><Button onClick={() => setForm({ group: null })}>New group</Button></Can>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">A group's root role and the project roles given to it hold for every member.</Text>
      <ErrorNotice error={groups.error} />
      {groups.isPending && <Loader aria-label="Loading groups" />}
      {groups.data && (groups.data.groups.length === 0 ? (
        <Text c="dimmed">No groups yet.</Text>
      ) : (
        <AccessTable highlightOnHover label="Groups" columns={['Group', 'Root role', 'SSO groups', { label: 'Members', right: true }]} actions={admin}>
          {groups.data.groups.map((g) => (
            <Table.Tr key={g.id}>
              <Table.Td>
                <Text fw={500} size="sm">{g.name}</Text>
                {g.description && <Text size="xs" c="dimmed">{g.description}</Text>}
              </Table.Td>
              <Table.Td>{roleName(roles.data?.roles, g.rootRole)}</Table.Td>
              <Table.Td>
                <Group gap={4}>{g.mappingsSSO.map((m) => <Badge key={m} variant="outline" tt="none">{m}</Badge>)}</Group>
              </Table.Td>
              <Table.Td ta="right">{g.userCount}</Table.Td>
              {admin && (
                <RowActions actions={[
                  { label: 'Members', name: `Members of ${g.name}`, onClick: () => setMembersOf(g.id) },
                  { label: 'Edit', name: `Edit ${g.name}`, onClick: () => setForm({ group: g }) },
                  { label: 'Delete', name: `Delete ${g.name}`, onClick: () => remove.ask(g), danger: true },
                ]} />
              )}
            </Table.Tr>
          ))}
        </AccessTable>
      ))}
      <ErrorNotice error={admin ? users.error : null} title="The users to add could not be read" />
      {form && <GroupFormModal key={form.group?.id ?? 'new'} group={form.group} onClose={() => setForm(null)} roles={roles.data?.roles ?? []} />}
      <MembersModal group={membersGroup} onClose={() => setMembersOf(null)} users={users.data?.users} />
      {remove.dialog}
    </>
  );
}
