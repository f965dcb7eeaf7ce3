import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { notYetHolding, personLabel, roleOptions, type AccessRow, type PersonLike, type RoleLike } from '../../logic/access';
import { accessKeys } from './queries';

const AddAccessMutation = graphql(`
  mutation AccessAddProjectAccess($input: AddProjectAccessInput!) {
    addProjectAccess(input: $input) { users { id } }
  }
`);

const SetUserRolesMutation = graphql(`
  mutation AccessSetProjectUserRoles($input: SetProjectRolesInput!) {
    setProjectUserRoles(input: $input) { users { id } }
  }
`);

const SetGroupRolesMutation = graphql(`
  mutation AccessSetProjectGroupRoles($input: SetProjectRolesInput!) {
    setProjectGroupRoles(input: $input) { groups { id } }
  }
`);

const RemoveUserMutation = graphql(`
  mutation AccessRemoveProjectUser($input: RemoveProjectRolesInput!) {
    removeProjectUserRoles(input: $input) { users { id } }
  }
`);

const RemoveGroupMutation = graphql(`
  mutation AccessRemoveProjectGroup($input: RemoveProjectRolesInput!) {
    removeProjectGroupRoles(input: $input) { groups { id } }
  }
`);

/** Every change to a project's access refreshes the holders (and the member count on the projects page). */
function useAccessMutation<V>(project: string, fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.projectAccess(project) });
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
}

export const useRemoveAccess = (project: string) =>
  useAccessMutation(project, (row: AccessRow) => (row.kind === 'user'
    ? gql(RemoveUserMutation, { input: { project, id: row.id } })
    : gql(RemoveGroupMutation, { input: { project, id: row.id } })));

interface AddAccessProps {
  project: string;
  opened: boolean;
  onClose: () => void;
  roles: readonly RoleLike[];
  rows: readonly AccessRow[];
  users: readonly PersonLike[] | undefined;
  groups: ReadonlyArray<{ id: number; name: string }> | undefined;
}

/** Gives project roles to users and groups not holding any yet (those who do are changed in their row). */
export function AddAccessModal({ project, opened, onClose, roles, rows, users, groups }: AddAccessProps) {
  const [userIds, setUserIds] = useState<string[]>([]);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const add = useAccessMutation(project, () => gql(AddAccessMutation, {
    input: { project, roles: roleIds.map(Number), users: userIds.map(Number), groups: groupIds.map(Number) },
  }));
  const close = () => { setUserIds([]); setGroupIds([]); setRoleIds([]); add.reset(); onClose(); };
  const userChoices = notYetHolding(users ?? [], rows.filter((r) => r.kind === 'user')).map((u) => ({ value: String(u.id), label: personLabel(u) }));
  const groupChoices = notYetHolding(groups ?? [], rows.filter((r) => r.kind === 'group')).map((g) => ({ value: String(g.id), label: g.name }));
  const ready = roleIds.length > 0 && userIds.length + groupIds.length > 0;

  return (
    <Modal opened={opened} onClose={close} title="Add access" centered size="lg">
      <form onSubmit={(e) => { e.preventDefault(); if (ready) add.mutate(undefined, { onSuccess: close }); }}>
        <Stack>
          {users ? (
            <MultiSelect label="Users" searchable data={userChoices} value={userIds} onChange={setUserIds} nothingFoundMessage="No other user" />
          ) : (
            <Text size="sm" c="dimmed">Only an admin can list users to add; groups can be added here.</Text>
          )}
          <MultiSelect label="Groups" searchable data={groupChoices} value={groupIds} onChange={setGroupIds} nothingFoundMessage="No other group" />
          <MultiSelect label="Roles" required searchable data={roleOptions(roles)} value={roleIds} onChange={setRoleIds} />
          <ErrorNotice error={add.error} title="No access was given" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={add.isPending} disabled={!ready}>Add access</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Replaces the project roles of one user or group. */
export function ChangeRolesModal({ project, row, onClose, roles }: { project: string; row: AccessRow | null; onClose: () => void; roles: readonly RoleLike[] }) {
  return (
    <Modal opened={row !== null} onClose={onClose} title={row ? `Roles of ${row.label}` : 'Roles'} centered>
      {row && <ChangeRolesForm key={`${row.kind}-${row.id}`} project={project} row={row} onClose={onClose} roles={roles} />}
    </Modal>
  );
}

function ChangeRolesForm({ project, row, onClose, roles }: { project: string; row: AccessRow; onClose: () => void; roles: readonly RoleLike[] }) {
  const [roleIds, setRoleIds] = useState(row.roles.map(String));
  const save = useAccessMutation(project, () => {
    const input = { project, id: row.id, roles: roleIds.map(Number) };
    return row.kind === 'user' ? gql(SetUserRolesMutation, { input }) : gql(SetGroupRolesMutation, { input });
  });
  return (
    <form onSubmit={(e) => { e.preventDefault(); save.mutate(undefined, { onSuccess: onClose }); }}>
      <Stack>
        <MultiSelect label="Project roles" searchable data={roleOptions(roles)} value={roleIds} onChange={setRoleIds}
          description={roleIds.length === 0 ? 'No role: saving removes this access.' : undefined} />
        <ErrorNotice error={save.error} title="The roles were not changed" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={save.isPending}>Save</Button>
        </Group>
      </Stack>
    </form>
  );
}
