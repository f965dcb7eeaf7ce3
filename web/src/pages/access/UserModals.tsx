import { Select, Text, TextInput, type SelectProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { SecretField } from '../../components/SecretField';
import { useCreateResetLink, useCreateUser, useUpdateUser } from '../../data/access';
import { isRootRole, personLabel, roleOptions, type RoleLike } from '../../logic/access';
import { ShownOnceModal } from './ShownOnceModal';

export interface EditableUser {
  id: number;
  name?: string | null;
  username?: string | null;
  email?: string | null;
  rootRole: number;
}

const EDITOR = '2';

/** The root role picker of the user forms. */
function RootRoleSelect({ roles, ...input }: { roles: readonly RoleLike[] } & Omit<SelectProps, 'data'>) {
  return <Select label="Root role" required allowDeselect={false} data={roleOptions(roles.filter(isRootRole))} {...input} />;
}

/**
 * "New user": name, email and/or username, root role. No password is asked: the service answers an invite link (valid
 * 24 hours, once) that the admin passes on, shown here once with "Copy". Mounted while open.
 */
export function NewUserModal({ onClose, roles }: { onClose: () => void; roles: readonly RoleLike[] }) {
  const create = useCreateUser();
  const form = useForm({
    initialValues: { name: '', email: '', username: '', rootRole: EDITOR },
    validate: { username: (username, v) => (!username.trim() && !v.email.trim() ? 'Give an email or a username.' : null) },
  });
  const link = create.data?.createUser.inviteLink;
  if (link) {
    return (
      <ShownOnceModal title="New user" onClose={onClose}>
        <Text size="sm">The user is created. Give them this link: it opens the page where they choose a password (valid 24 hours, once).</Text>
        <SecretField label="Invite link" value={link} />
      </ShownOnceModal>
    );
  }
  // Blank fields are left out (undefined is not sent): the service keeps a user's name, email or username absent.
  const given = (text: string) => text.trim() || undefined;
  const send = (v: typeof form.values) => create.mutate({ rootRole: v.rootRole, name: given(v.name), email: given(v.email), username: given(v.username) });
  return (
    <FormModal title="New user" errorTitle="The user was not created" size="lg" form={form} mutation={create} submitLabel="Create user" onClose={onClose} onSubmit={send}>
      <TextInput label="Name" data-autofocus autoComplete="off" {...form.getInputProps('name')} />
      <TextInput label="Email" type="email" autoComplete="off" {...form.getInputProps('email')} />
      <TextInput label="Username" description="A user signs in with the username or the email: give at least one." autoComplete="off"
        {...form.getInputProps('username')} />
      <RootRoleSelect roles={roles} {...form.getInputProps('rootRole')} />
    </FormModal>
  );
}

/** A user's name, email and root role (the username is fixed: it is how they sign in). Mounted while open. */
export function EditUserModal({ user, onClose, roles }: { user: EditableUser; onClose: () => void; roles: readonly RoleLike[] }) {
  const save = useUpdateUser();
  const form = useForm({ initialValues: { name: user.name ?? '', email: user.email ?? '', rootRole: String(user.rootRole) } });
  return (
    <FormModal title={`Edit ${personLabel(user)}`} errorTitle="The user was not changed" form={form} mutation={save} submitLabel="Save" onClose={onClose}
      // An emptied email is sent as null (the service removes it, or refuses when it is the user's only sign-in name).
      onSubmit={(v) => save.mutate({ id: user.id, name: v.name.trim(), email: v.email.trim() || null, rootRole: v.rootRole }, { onSuccess: onClose })}>
      {user.username && <TextInput label="Username" value={user.username} readOnly description="How they sign in; it cannot be changed." />}
      <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
      <TextInput label="Email" type="email" {...form.getInputProps('email')} />
      <RootRoleSelect roles={roles} {...form.getInputProps('rootRole')} />
    </FormModal>
  );
}

/**
 * A password reset link for a user, asked for with a button (a new link ends the user's older ones, so none is made
 * just by opening the dialog), then shown once with "Copy". Mounted while open.
 */
export function ResetLinkModal({ user, onClose }: { user: EditableUser; onClose: () => void }) {
  const create = useCreateResetLink();
  const form = useForm({ initialValues: {} });
  const title = `Reset the password of ${personLabel(user)}`;
  const link = create.data?.createPasswordResetLink.resetPasswordUrl;
  if (link) {
    return (
      <ShownOnceModal title={title} onClose={onClose}>
        <SecretField label="Reset link" value={link} description="Shown once: valid 24 hours, once. Older links of this user no longer work." />
      </ShownOnceModal>
    );
  }
  return (
    <FormModal title={title} errorTitle="No link was created" size="lg" form={form} mutation={create} submitLabel="Create reset link" onClose={onClose}
      onSubmit={() => create.mutate(user.username || user.email || '')}>
      <Text size="sm">A link with which the user chooses a new password. Their current password keeps working until they do.</Text>
    </FormModal>
  );
}
