import { Badge, Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { isCustomRole, isRootRole } from '../../logic/access';
import { permissionSummary } from '../../logic/access-permissions';
import { accessKeys } from '../access/queries';
import { RoleModal, type EditableRole } from '../access/RoleModal';

const RolesQuery = graphql(`
  query AccessRolesWithPermissions {
    roles { id name type description permissions { id name displayName type environment } }
  }
`);

const DeleteRoleMutation = graphql(`
  mutation AccessDeleteRole($input: IdInput!) {
    deleteRole(input: $input)
  }
`);

/** `/admin/roles`: root and project roles with their permissions; custom ones created, changed and deleted by an admin. */
export default function RolesPage() {
  const queryClient = useQueryClient();
  const admin = useAllowed().can('ADMIN');
  const roles = useQuery({ queryKey: [...accessKeys.roles, 'permissions'], queryFn: () => gql(RolesQuery) });
  const [form, setForm] = useState<{ role: EditableRole | null } | null>(null);
  const [deleting, setDeleting] = useState<EditableRole | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => gql(DeleteRoleMutation, { input: { id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.roles });
      setDeleting(null);
    },
  });
  const all = roles.data?.roles ?? [];

  const table = (title: string, list: EditableRole[]) => (
    <>
      <Title order={2} size="h3" mt="lg" mb="xs">{title}</Title>
      <Table verticalSpacing="xs" aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Role</Table.Th>
            <Table.Th>Permissions</Table.Th>
            {admin && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td maw={360}>
                <Group gap={6}>
                  <Text fw={500} size="sm">{r.name}</Text>
                  <Badge size="sm" variant="light" color={isCustomRole(r) ? 'grape' : 'gray'}>{isCustomRole(r) ? 'Custom' : 'Predefined'}</Badge>
                </Group>
                <Text size="xs" c="dimmed" lineClamp={2}>{r.description}</Text>
              </Table.Td>
              <Table.Td><Text size="sm">{r.permissions.some((p) => p.name === 'ADMIN') ? 'Every permission (ADMIN)' : permissionSummary(r.permissions)}</Text></Table.Td>
              {admin && (
                <Table.Td>
                  {isCustomRole(r) && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="default" aria-label={`Edit ${r.name}`} onClick={() => setForm({ role: r })}>Edit</Button>
                      <Button size="compact-sm" variant="light" color="red" aria-label={`Delete ${r.name}`} onClick={() => { remove.reset(); setDeleting(r); }}>Delete</Button>
                    </Group>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Roles</Title>
        {admin && <Button onClick={() => setForm({ role: null })}>New role</Button>}
      </Group>
      <ErrorNotice error={roles.error} />
      {roles.isPending && <Loader aria-label="Loading roles" />}
      {roles.data && (
        <>
          {table('Root roles', all.filter(isRootRole))}
          {table('Project roles', all.filter((r) => !isRootRole(r)))}
        </>
      )}
      <RoleModal opened={form !== null} role={form?.role ?? null} onClose={() => setForm(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? `Delete ${deleting.name}` : 'Delete role'}
        message="The role is deleted. The service refuses while a user, group or project grant still holds it."
        confirmLabel="Delete role"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </>
  );
}
