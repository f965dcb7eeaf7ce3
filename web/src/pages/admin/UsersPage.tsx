import { Button, Group, Loader, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed, useMe } from '../../data/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { filterPeople, pageOf, personDetail, personLabel, roleName, shortDate } from '../../logic/access';
import { Pager } from '../access/Pager';
import { accessKeys, useRoles, useUsers } from '../access/queries';
import { EditUserModal, NewUserModal, ResetLinkModal, type EditableUser } from '../access/UserModals';

const DeleteUserMutation = graphql(`
  mutation AccessDeleteUser($input: IdInput!) {
    deleteUser(input: $input)
  }
`);

const PAGE_SIZE = 50;

/** `/admin/users`: every user with their root role, searchable and paged; create, edit, reset-password link, delete. */
export default function UsersPage() {
  const queryClient = useQueryClient();
  const { can } = useAllowed();
  const me = useMe();
  const admin = can('ADMIN');
  const users = useUsers();
  const roles = useRoles();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<EditableUser | null>(null);
  const [resetting, setResetting] = useState<EditableUser | null>(null);
  const [deleting, setDeleting] = useState<EditableUser | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => gql(DeleteUserMutation, { input: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.users });
      setDeleting(null);
    },
  });

  const found = filterPeople(users.data?.users ?? [], search);
  const shown = pageOf(found, page, PAGE_SIZE);
  const myId = me.data?.me.user.id;

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Users</Title>
        {admin && <Button onClick={() => setCreating(true)}>New user</Button>}
      </Group>
      <ErrorNotice error={users.error} />
      <ErrorNotice error={roles.error} />
      {users.isPending && <Loader aria-label="Loading users" />}
      {users.data && (
        <>
          <TextInput label="Search users" placeholder="Name, username or email" maw={360} mb="sm" value={search}
            onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }} />
          <Table highlightOnHover verticalSpacing="xs" aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Root role</Table.Th>
                <Table.Th>Last seen</Table.Th>
                <Table.Th>Created</Table.Th>
                {admin && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.items.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Text fw={500} size="sm">{personLabel(u)}</Text>
                    <Text size="xs" c="dimmed">{personDetail(u)}</Text>
                  </Table.Td>
                  <Table.Td>{roleName(roles.data?.roles, u.rootRole)}</Table.Td>
                  <Table.Td>{shortDate(u.seenAt)}</Table.Td>
                  <Table.Td>{shortDate(u.createdAt)}</Table.Td>
                  {admin && (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="compact-sm" variant="default" aria-label={`Edit ${personLabel(u)}`} onClick={() => setEditing(u)}>Edit</Button>
                        <Button size="compact-sm" variant="default" aria-label={`Reset password of ${personLabel(u)}`} onClick={() => setResetting(u)}>Reset password</Button>
                        {u.id !== myId && (
                          <Button size="compact-sm" variant="light" color="red" aria-label={`Delete ${personLabel(u)}`}
                            onClick={() => { remove.reset(); setDeleting(u); }}>Delete</Button>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {found.length === 0 && <Text c="dimmed" size="sm" mt="sm">No user matches.</Text>}
          <Pager page={shown.page} pages={shown.pages} total={found.length} onChange={setPage} noun="users" />
        </>
      )}
      <NewUserModal opened={creating} onClose={() => setCreating(false)} roles={roles.data?.roles ?? []} />
      <EditUserModal user={editing} onClose={() => setEditing(null)} roles={roles.data?.roles ?? []} />
      <ResetLinkModal user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete ${personLabel(deleting)}` : 'Delete user'}
        message="The user, their sessions, personal access tokens and roles are deleted. This cannot be undone."
        confirmLabel="Delete user"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </>
  );
}
