import { Button, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { useCreateGroup, useSetGroupMembers, useUpdateGroup, type AccessGroup } from '../../data/access';
import { isRootRole, nextMembers, parseMappings, personDetail, personLabel, roleOptions, shortDate, type PersonLike, type RoleLike } from '../../logic/access';
import { RowActions } from './RowActions';

const NO_ROLE = '';

/**
 * Creates a group, or changes one's name, description, root role and SSO mappings (its members stay as they are).
 * Mounted while open.
 */
export function GroupFormModal({ group, onClose, roles }: { group: AccessGroup | null; onClose: () => void; roles: readonly RoleLike[] }) {
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const save = group ? update : create;
  const form = useForm({
    initialValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      rootRole: group?.rootRole ? String(group.rootRole) : NO_ROLE,
      mappingsSSO: (group?.mappingsSSO ?? []).join('\n'),
    },
    validate: { name: (name) => (name.trim() ? null : 'Give the group a name.') },
  });
  const submit = (v: typeof form.values) => {
    const fields = { name: v.name.trim(), description: v.description.trim() || null, rootRole: v.rootRole === NO_ROLE ? null : Number(v.rootRole), mappingsSSO: parseMappings(v.mappingsSSO) };
    if (group) update.mutate({ ...fields, id: group.id, users: group.users.map((m) => m.user.id) }, { onSuccess: onClose });
    else create.mutate(fields, { onSuccess: onClose });
  };
  const options = [{ value: NO_ROLE, label: 'None' }, ...roleOptions(roles.filter(isRootRole))];
  return (
    <FormModal title={group ? `Edit ${group.name}` : 'New group'} errorTitle={group ? 'The group was not changed' : 'The group was not created'} size="lg" form={form} mutation={save} submitLabel={group ? 'Save' : 'Create group'}
      onClose={onClose} onSubmit={submit}>
      <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <Select label="Root role" description="Every member holds it, on top of their own root role." allowDeselect={false} data={options}
        {...form.getInputProps('rootRole')} />
      <Textarea label="SSO groups" description="Names of identity-provider groups whose members join this group on single sign-on: one per line or separated by commas."
        autosize minRows={2} {...form.getInputProps('mappingsSSO')} />
    </FormModal>
  );
}

/** A group's members: add one chosen from the users, remove any; each change is saved at once. */
export function MembersModal({ group, onClose, users }: { group: AccessGroup | null; onClose: () => void; users: readonly PersonLike[] | undefined }) {
  const [adding, setAdding] = useState<string | null>(null);
  const save = useSetGroupMembers(group);
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
                    <RowActions actions={[{ label: 'Remove', name: `Remove ${personLabel(m.user)} from ${group.name}`, danger: true,
                      onClick: () => save.mutate(nextMembers(current, [], [m.user.id])) }]} />
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
