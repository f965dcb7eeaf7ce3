import { Badge, Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useDeleteRole, useRolesWithPermissions } from '../../data/access';
import { useAllowed } from '../../data/session';
import { isCustomRole, isRootRole } from '../../logic/access';
import { permissionSummary } from '../../logic/access-permissions';
import { AccessTable } from '../access/AccessTable';
import { RoleModal, type EditableRole } from '../access/RoleModal';
import { RowActions } from '../access/RowActions';

/** `/admin/roles`: root and project roles with their permissions; custom ones created, changed and deleted by an admin. */
export default function RolesPage() {
  const admin = useAllowed().can('ADMIN');
  const roles = useRolesWithPermissions();
  const [form, setForm] = useState<{ role: EditableRole | null } | null>(null);
  const remove = useConfirm(useDeleteRole(), {
    title: (r) => `Delete ${r.name}`,
    message: () => 'The role is deleted. The service refuses while a user, group or project grant still holds it.',
    confirmLabel: 'Delete role',
  });
  const all = roles.data?.roles ?? [];

  const table = (title: string, list: EditableRole[]) => (
    <>
      <Title order={2} size="h3" mt="lg" mb="xs">{title}</Title>
      <AccessTable label={title} columns={['Role', 'Permissions']} actions={admin}>
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
              // Predefined roles cannot be changed: their cell stays empty.
              <RowActions actions={isCustomRole(r) ? [
                { label: 'Edit', name: `Edit ${r.name}`, onClick: () => setForm({ role: r }) },
                { label: 'Delete', name: `Delete ${r.name}`, onClick: () => remove.ask(r), danger: true },
              ] : []} />
            )}
          </Table.Tr>
        ))}
      </AccessTable>
    </>
  );

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Roles</Title>
        <Can permission="ADMIN"><Button onClick={() => setForm({ role: null })}>New role</Button></Can>
      </Group>
      <ErrorNotice error={roles.error} />
      {roles.isPending && <Loader aria-label="Loading roles" />}
      {roles.data && (
        <>
          {table('Root roles', all.filter(isRootRole))}
          {table('Project roles', all.filter((r) => !isRootRole(r)))}
        </>
      )}
      {form && <RoleModal key={form.role?.id ?? 'new'} role={form.role} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
