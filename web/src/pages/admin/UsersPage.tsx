import { Button, Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useDeleteUser, useRoles, useUsers } from '../../data/access';
import { useAllowed, useMe } from '../../data/session';
import { filterPeople, pageOf, personDetail, personLabel, roleName, shortDate } from '../../logic/access';
import { useUrlState } from '../../routing/useUrlState';
import { AccessTable } from '../access/AccessTable';
import { Pager } from '../access/Pager';
import { RowActions } from '../access/RowActions';
import { EditUserModal, NewUserModal, ResetLinkModal, type EditableUser } from '../access/UserModals';

const PAGE_SIZE = 50;
const URL_STATE = ['q', 'page'] as const;

/** `/admin/users`: every user with their root role, searchable and paged (both in the address); create, edit, reset-password link, delete. */
export default function UsersPage() {
  const { can } = useAllowed();
  const me = useMe();
  const admin = can('ADMIN');
  const users = useUsers();
  const roles = useRoles();
  const [url, setUrl] = useUrlState(URL_STATE);
  // The box shows what is typed at once; the address follows (a new search starts at the first page).
  const [search, setSearch] = useState(url.q ?? '');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<EditableUser | null>(null);
  const [resetting, setResetting] = useState<EditableUser | null>(null);
  const remove = useConfirm(useDeleteUser(), {
    title: (u) => `Delete ${personLabel(u)}`,
    message: () => 'The user, their sessions, personal access tokens and roles are deleted. This cannot be undone.',
    confirmLabel: 'Delete user',
  });

  const found = filterPeople(users.data?.users ?? [], search);
  const shown = pageOf(found, Number(url.page ?? 1), PAGE_SIZE);
  const myId = me.data?.me.user.id;
  const roleList = roles.data?.roles ?? [];

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Users</Title>
        <Can permission="ADMIN"><Button onClick={() => setCreating(true)}>New user</Button></Can>
      </Group>
      <ErrorNotice error={users.error} />
      <ErrorNotice error={roles.error} />
      {users.isPending && <Loader aria-label="Loading users" />}
      {users.data && (
        <>
          <TextInput label="Search users" placeholder="Name, username or email" maw={360} mb="sm" value={search}
            onChange={(e) => { setSearch(e.currentTarget.value); setUrl({ q: e.currentTarget.value, page: null }); }} />
          <AccessTable highlightOnHover label="Users" columns={['User', 'Root role', 'Last seen', 'Created']} actions={admin}>
            {shown.items.map((u) => (
              <Table.Tr key={u.id}>
                <Table.Td>
                  <Text fw={500} size="sm">{personLabel(u)}</Text>
                  <Text size="xs" c="dimmed">{personDetail(u)}</Text>
                </Table.Td>
                <Table.Td>{roleName(roleList, u.rootRole)}</Table.Td>
                <Table.Td>{shortDate(u.seenAt)}</Table.Td>
                <Table.Td>{shortDate(u.createdAt)}</Table.Td>
                {admin && (
                  <RowActions actions={[
                    { label: 'Edit', name: `Edit ${personLabel(u)}`, onClick: () => setEditing(u) },
                    { label: 'Reset password', name: `Reset password of ${personLabel(u)}`, onClick: () => setResetting(u) },
                    { label: 'Delete', name: `Delete ${personLabel(u)}`, onClick: () => remove.ask(u), danger: true, hidden: u.id === myId },
                  ]} />
                )}
              </Table.Tr>
            ))}
          </AccessTable>
          {found.length === 0 && <Text c="dimmed" size="sm" mt="sm">No user matches.</Text>}
          <Pager page={shown.page} pages={shown.pages} total={found.length} noun="users"
            onChange={(page) => setUrl({ page: page === 1 ? null : String(page) })} />
        </>
      )}
      {creating && <NewUserModal onClose={() => setCreating(false)} roles={roleList} />}
      {editing && <EditUserModal key={editing.id} user={editing} onClose={() => setEditing(null)} roles={roleList} />}
      {resetting && <ResetLinkModal key={resetting.id} user={resetting} onClose={() => setResetting(null)} />}
      {remove.dialog}
    </>
  );
}
