import { Button, Group, Loader, Modal, Radio, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { keepOffered, pickerGroups, selectionOf, toPermissionInput, type CustomRoleType, type ListedPermission } from '../../logic/access-permissions';
import { PermissionPicker } from './PermissionPicker';
import { accessKeys } from './queries';

const PermissionsQuery = graphql(`
  query AccessPermissionListing {
    permissions {
      root { id name displayName type environment }
      project { id name displayName type environment }
      environments { name permissions { id name displayName type environment } }
    }
  }
`);

const CreateRoleMutation = graphql(`
  mutation AccessCreateRole($input: CreateRoleInput!) {
    createRole(input: $input) { role { id } }
  }
`);

const UpdateRoleMutation = graphql(`
  mutation AccessUpdateRole($input: UpdateRoleInput!) {
    updateRole(input: $input) { role { id } }
  }
`);

export interface EditableRole {
  id: number;
  name: string;
  description: string;
  type: string;
  permissions: ListedPermission[];
}

/** Creates a custom role, or changes one: name, description, kind (root or project) and its permissions. */
export function RoleModal({ role, opened, onClose }: { role: EditableRole | null; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={role ? `Edit ${role.name}` : 'New role'} centered size="xl">
      {opened && <RoleForm key={role?.id ?? 'new'} role={role} onClose={onClose} />}
    </Modal>
  );
}

function RoleForm({ role, onClose }: { role: EditableRole | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const listing = useQuery({ queryKey: ['access', 'permission-listing'], queryFn: () => gql(PermissionsQuery), staleTime: 60_000 });
  const initialType: CustomRoleType = role?.type === 'root-custom' ? 'root-custom' : 'custom';
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [type, setType] = useState<CustomRoleType>(initialType);
  const [chosen, setChosen] = useState(() => selectionOf(role?.permissions ?? [], initialType));
  const groups = listing.data ? pickerGroups(listing.data.permissions, type, chosen) : [];
  const save = useMutation({
    mutationFn: async (): Promise<unknown> => {
      const input = { name: name.trim(), description: description.trim(), type, permissions: toPermissionInput(chosen) };
      return role ? gql(UpdateRoleMutation, { input: { ...input, id: role.id } }) : gql(CreateRoleMutation, { input });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles });
      onClose();
    },
  });
  const changeType = (next: string) => {
    const t = next as CustomRoleType;
    setType(t);
    // What the other kind of role cannot hold is dropped now, not silently at saving.
    if (listing.data) setChosen(keepOffered(pickerGroups(listing.data.permissions, t, chosen), chosen));
  };

  return (
    <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <Stack>
        <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Radio.Group label="Kind" value={type} onChange={changeType}
          description="A root role is a user's or group's role everywhere; a project role is given in a project.">
          <Group mt={6}>
            <Radio value="custom" label="Project role" />
            <Radio value="root-custom" label="Root role" />
          </Group>
        </Radio.Group>
        <ErrorNotice error={listing.error} title="The permissions could not be read" />
        {listing.isPending ? <Loader aria-label="Loading permissions" /> : <PermissionPicker groups={groups} value={chosen} onChange={setChosen} />}
        <ErrorNotice error={save.error} title={role ? 'The role was not changed' : 'The role was not created'} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={save.isPending} disabled={!name.trim()}>{role ? 'Save' : 'Create role'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
