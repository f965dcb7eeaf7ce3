import { Group, Loader, Radio, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { usePermissionListing, useSaveRole } from '../../data/access';
import { keepOffered, pickerGroups, selectionOf, toPermissionInput, type CustomRoleType, type ListedPermission } from '../../logic/access-permissions';
import { PermissionPicker } from './PermissionPicker';

export interface EditableRole {
  id: number;
  name: string;
  description: string;
  type: string;
  permissions: ListedPermission[];
}

/** Creates a custom role, or changes one: name, description, kind (root or project) and its permissions. Mounted while open. */
export function RoleModal({ role, onClose }: { role: EditableRole | null; onClose: () => void }) {
  const listing = usePermissionListing();
  const save = useSaveRole();
  const initialType: CustomRoleType = role?.type === 'root-custom' ? 'root-custom' : 'custom';
  const form = useForm({
    // The chosen permissions as the picker's keys (`name|environment`).
    initialValues: { name: role?.name ?? '', description: role?.description ?? '', type: initialType, permissions: [...selectionOf(role?.permissions ?? [], initialType)] },
    validate: { name: (name) => (name.trim() ? null : 'Give the role a name.') },
  });
  const { type } = form.values;
  const chosen = new Set(form.values.permissions);
  const groups = listing.data ? pickerGroups(listing.data.permissions, type, chosen) : [];
  const changeType = (next: string) => {
    const t = next as CustomRoleType;
    // What the other kind of role cannot hold is dropped now, not silently at saving.
    const kept = listing.data ? keepOffered(pickerGroups(listing.data.permissions, t, chosen), chosen) : chosen;
    form.setValues({ type: t, permissions: [...kept] });
  };

  return (
    <FormModal title={role ? `Edit ${role.name}` : 'New role'} errorTitle={role ? 'The role was not changed' : 'The role was not created'} size="xl" form={form} mutation={save} submitLabel={role ? 'Save' : 'Create role'} onClose={onClose}
      onSubmit={(v) => save.mutate({ ...(role ? { id: role.id } : {}), name: v.name.trim(), description: v.description.trim(), type: v.type, permissions: toPermissionInput(chosen) },
        { onSuccess: onClose })}>
      <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <Radio.Group label="Kind" value={type} onChange={changeType}
        description="A root role is a user's or group's role everywhere; a project role is given in a project.">
        <Group mt={6}>
          <Radio value="custom" label="Project role" />
          <Radio value="root-custom" label="Root role" />
        </Group>
      </Radio.Group>
      <ErrorNotice error={listing.error} title="The permissions could not be read" />
      {listing.isPending ? <Loader aria-label="Loading permissions" />
        : <PermissionPicker groups={groups} value={chosen} onChange={(next) => form.setFieldValue('permissions', [...next])} />}
    </FormModal>
  );
}
