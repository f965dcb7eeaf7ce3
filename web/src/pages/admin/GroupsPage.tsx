import { Badge, Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { roleName } from '../../logic/access';
import { GroupFormModal, MembersModal, type AccessGroup } from '../access/GroupModals';
import { accessKeys, useGroups, useRoles, useUsers } from '../access/queries';

const DeleteGroupMutation = graphql(`
  mutation AccessDeleteGroup($input: GroupIdInput!) {
    deleteGroup(input: $input)
  }
`);

/** `/admin/groups`: groups with their root role, SSO mappings and members; create, edit, members, delete (ADMIN). */
export default function GroupsPage() {
  const queryClient = useQueryClient();
  const admin = useAllowed().can('ADMIN');
  const groups = useGroups();
  const roles = useRoles();
  // Members are chosen from the users, which only an admin may list.
  const users = useUsers(admin);
  const [form, setForm] = useState<{ group: AccessGroup | null } | null>(null);
  const [membersOf, setMembersOf] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AccessGroup | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => gql(DeleteGroupMutation, { input: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.groups });
      setDeleting(null);
    },
  });
  // The members dialog reads the group from the list as it is now, so it shows each change once saved.
  const membersGroup = groups.data?.groups.find((g) => g.id === membersOf) ?? null;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Groups</Title>
        {admin && <Button onClick={() => setForm({ group: null })}>New group</Button>}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">A group's root role and the project roles given to it hold for every member.</Text>
      <ErrorNotice error={groups.error} />
      {groups.isPending && <Loader aria-label="Loading groups" />}
      {groups.data && (groups.data.groups.length === 0 ? (
        <Text c="dimmed">No groups yet.</Text>
      ) : (
        <Table highlightOnHover verticalSpacing="xs" aria-label="Groups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Group</Table.Th>
              <Table.Th>Root role</Table.Th>
              <Table.Th>SSO groups</Table.Th>
              <Table.Th ta="right">Members</Table.Th>
              {admin && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
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
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="default" aria-label={`Members of ${g.name}`} onClick={() => setMembersOf(g.id)}>Members</Button>
                      <Button size="compact-sm" variant="default" aria-label={`Edit ${g.name}`} onClick={() => setForm({ group: g })}>Edit</Button>
                      <Button size="compact-sm" variant="light" color="red" aria-label={`Delete ${g.name}`} onClick={() => { remove.reset(); setDeleting(g); }}>Delete</Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ))}
      <ErrorNotice error={admin ? users.error : null} title="The users to add could not be read" />
      <GroupFormModal opened={form !== null} group={form?.group ?? null} onClose={() => setForm(null)} roles={roles.data?.roles ?? []} />
      <MembersModal group={membersGroup} onClose={() => setMembersOf(null)} users={users.data?.users} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete ${deleting.name}` : 'Delete group'}
        message="The group, its memberships and the project roles it holds are deleted; its members keep their own roles."
        confirmLabel="Delete group"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </>
  );
}
