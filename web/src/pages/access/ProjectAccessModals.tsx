import { MultiSelect, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { useAddProjectAccess, useSetProjectRoles } from '../../data/access';
import { notYetHolding, personLabel, roleOptions, type AccessRow, type PersonLike, type RoleLike } from '../../logic/access';

interface AddAccessProps {
  project: string;
  onClose: () => void;
  roles: readonly RoleLike[];
  rows: readonly AccessRow[];
  users: readonly PersonLike[] | undefined;
  groups: ReadonlyArray<{ id: number; name: string }> | undefined;
}

const ids = (values: string[]) => values.map(Number);

/** Gives project roles to users and groups not holding any yet (those who do are changed in their row). Mounted while open. */
export function AddAccessModal({ project, onClose, roles, rows, users, groups }: AddAccessProps) {
  const add = useAddProjectAccess(project);
  const form = useForm({
    initialValues: { users: [] as string[], groups: [] as string[], roles: [] as string[] },
    validate: {
      groups: (chosen, v) => (chosen.length + v.users.length === 0 ? 'Choose at least one user or group.' : null),
      roles: (chosen) => (chosen.length === 0 ? 'Choose at least one role.' : null),
    },
  });
  const userChoices = notYetHolding(users ?? [], rows.filter((r) => r.kind === 'user')).map((u) => ({ value: String(u.id), label: personLabel(u) }));
  const groupChoices = notYetHolding(groups ?? [], rows.filter((r) => r.kind === 'group')).map((g) => ({ value: String(g.id), label: g.name }));

  return (
    <FormModal title="Add access" errorTitle="No access was given" size="lg" form={form} mutation={add} submitLabel="Add access" onClose={onClose}
      onSubmit={(v) => add.mutate({ roles: ids(v.roles), users: ids(v.users), groups: ids(v.groups) }, { onSuccess: onClose })}>
      {users ? (
        <MultiSelect label="Users" searchable data={userChoices} nothingFoundMessage="No other user" {...form.getInputProps('users')} />
      ) : (
        <Text size="sm" c="dimmed">Only an admin can list users to add; groups can be added here.</Text>
      )}
      <MultiSelect label="Groups" searchable data={groupChoices} nothingFoundMessage="No other group" {...form.getInputProps('groups')} />
      <MultiSelect label="Roles" required searchable data={roleOptions(roles)} {...form.getInputProps('roles')} />
    </FormModal>
  );
}

/** Replaces the project roles of one user or group. Mounted while open. */
export function ChangeRolesModal({ project, row, onClose, roles }: { project: string; row: AccessRow; onClose: () => void; roles: readonly RoleLike[] }) {
  const save = useSetProjectRoles(project);
  const form = useForm({ initialValues: { roles: row.roles.map(String) } });
  return (
    <FormModal title={`Roles of ${row.label}`} errorTitle="The roles were not changed" form={form} mutation={save} submitLabel="Save" onClose={onClose}
      onSubmit={(v) => save.mutate({ row, roles: ids(v.roles) }, { onSuccess: onClose })}>
      <MultiSelect label="Project roles" searchable data={roleOptions(roles)} {...form.getInputProps('roles')}
        description={form.values.roles.length === 0 ? 'No role: saving removes this access.' : undefined} />
    </FormModal>
  );
}
