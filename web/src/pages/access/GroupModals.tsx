import { Button, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import type { AccessGroupsQuery } from '../../gql/graphql';
import { isRootRole, nextMembers, parseMappings, personDetail, personLabel, roleOptions, shortDate, type PersonLike, type RoleLike } from '../../logic/access';
import { accessKeys } from './queries';

export type AccessGroup = AccessGroupsQuery['groups'][number];

const CreateGroupMutation = graphql(`
  mutation AccessCreateGroup($input: CreateGroupInput!) {
    createGroup(input: $input) { id }
  }
`);

const UpdateGroupMutation = graphql(`
  mutation AccessUpdateGroup($input: UpdateGroupInput!) {
    updateGroup(input: $input) { id userCount }
  }
`);

/** The group as updateGroup takes it (the mutation replaces the whole group), with members changed as asked. */
function groupInput(group: AccessGroup, members: number[]) {
  return { id: group.id, name: group.name, description: group.description ?? null, rootRole: group.rootRole ?? null, mappingsSSO: group.mappingsSSO, users: members };
}

const NO_ROLE = '';

/** Creates a group, or changes one's name, description, root role and SSO mappings (its members stay as they are). */
export function GroupFormModal({ group, opened, onClose, roles }: { group: AccessGroup | null; opened: boolean; onClose: () => void; roles: readonly RoleLike[] }) {
  return (
    <Modal opened={opened} onClose={onClose} title={group ? `Edit ${group.name}` : 'New group'} centered size="lg">
      {opened && <GroupForm key={group?.id ?? 'new'} group={group} onClose={onClose} roles={roles} />}
    </Modal>
  );
}

function GroupForm({ group, onClose, roles }: { group: AccessGroup | null; onClose: () => void; roles: readonly RoleLike[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [rootRole, setRootRole] = useState(group?.rootRole ? String(group.rootRole) : NO_ROLE);
  const [mappings, setMappings] = useState((group?.mappingsSSO ?? []).join('\n'));
  const save = useMutation({
    mutationFn: async (): Promise<unknown> => {
      const fields = {
        name: name.trim(),
        description: description.trim() || null,
        rootRole: rootRole === NO_ROLE ? null : Number(rootRole),
        mappingsSSO: parseMappings(mappings),
      };
      return group
        ? gql(UpdateGroupMutation, { input: { ...fields, id: group.id, users: group.users.map((m) => m.user.id) } })
        : gql(CreateGroupMutation, { input: fields });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.groups });
      onClose();
    },
  });
  const options = [{ value: NO_ROLE, label: 'None' }, ...roleOptions(roles.filter(isRootRole))];
  return (
    <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <Stack>
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Select label="Root role" description="Every member holds it, on top of their own root role." allowDeselect={false} data={options} value={rootRole}
          onChange={(v) => setRootRole(v ?? NO_ROLE)} />
        <Textarea label="SSO groups" description="Names of identity-provider groups whose members join this group on single sign-on: one per line or separated by commas."
          autosize minRows={2} value={mappings} onChange={(e) => setMappings(e.currentTarget.value)} />
        <ErrorNotice error={save.error} title={group ? 'The group was not changed' : 'The group was not created'} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={save.isPending} disabled={!name.trim()}>{group ? 'Save' : 'Create group'}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A group's members: add one chosen from the users, remove any; each change is saved at once. */
export function MembersModal({ group, onClose, users }: { group: AccessGroup | null; onClose: () => void; users: readonly PersonLike[] | undefined }) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (members: number[]) => gql(UpdateGroupMutation, { input: groupInput(group!, members) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.groups }),
  });
  const close = () => { save.reset(); setAdding(null); onClose(); };
  const current = group?.users.map((m) => m.user.id) ?? [];
  const candidates = (users ?? []).filter((u) => !current.includes(u.id)).map((u) => ({ value: String(u.id), label: personLabel(u) }));

  return (
    <Modal opened={group !== null} onClose={close} title={group ? `Members of ${group.name}` : 'Members'} centered size="lg">
      {group && (
        <Stack>
          <Group align="flex-end">
            <Select label="Add member" placeholder="Choose a user" searchable data={candidates} value={adding} onChange={setAdding} style={{ flex: 1 }}
              nothingFoundMessage="No other user" />
            <Button disabled={!adding} loading={save.isPending}
              onClick={() => save.mutate(nextMembers(current, [Number(adding)]), { onSuccess: () => setAdding(null) })}>Add</Button>
          </Group>
          <ErrorNotice error={save.error} title="The members were not changed" />
          {group.users.length === 0 ? (
            <Text size="sm" c="dimmed">No members yet.</Text>
          ) : (
            <Table aria-label={`Members of ${group.name}`}>
              <Table.Thead>
                <Table.Tr><Table.Th>Member</Table.Th><Table.Th>Joined</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {group.users.map((m) => (
                  <Table.Tr key={m.user.id}>
                    <Table.Td><Text size="sm">{personLabel(m.user)}</Text><Text size="xs" c="dimmed">{personDetail(m.user)}</Text></Table.Td>
                    <Table.Td>{shortDate(m.joinedAt)}</Table.Td>
                    <Table.Td ta="right">
                      <Button size="compact-sm" variant="light" color="red" aria-label={`Remove ${personLabel(m.user)} from ${group.name}`}
                        onClick={() => save.mutate(nextMembers(current, [], [m.user.id]))}>Remove</Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end"><Button variant="default" onClick={close}>Done</Button></Group>
        </Stack>
      )}
    </Modal>
  );
}
