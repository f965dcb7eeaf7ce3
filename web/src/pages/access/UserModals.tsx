import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { SecretField } from '../../components/SecretField';
import { graphql } from '../../gql';
import { isRootRole, personLabel, roleOptions, type RoleLike } from '../../logic/access';
import { accessKeys } from './queries';

const CreateUserMutation = graphql(`
  mutation AccessCreateUser($input: CreateUserInput!) {
    createUser(input: $input) { id inviteLink }
  }
`);

const UpdateUserMutation = graphql(`
  mutation AccessUpdateUser($input: UpdateUserInput!) {
    updateUser(input: $input) { id name email rootRole }
  }
`);

const ResetLinkMutation = graphql(`
  mutation AccessResetLink($input: CreatePasswordResetLinkInput!) {
    createPasswordResetLink(input: $input) { resetPasswordUrl }
  }
`);

export interface EditableUser {
  id: number;
  name?: string | null;
  username?: string | null;
  email?: string | null;
  rootRole: number;
}

const EDITOR = '2';

/**
 * "New user": name, email and/or username, root role. No password is asked: the service answers an invite link (valid
 * 24 hours, once) that the admin passes on, shown here once with "Copy".
 */
export function NewUserModal({ opened, onClose, roles }: { opened: boolean; onClose: () => void; roles: readonly RoleLike[] }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', email: '', username: '', rootRole: EDITOR });
  const create = useMutation({
    mutationFn: () => gql(CreateUserMutation, {
      input: {
        rootRole: form.rootRole,
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        ...(form.email.trim() ? { email: form.email.trim() } : {}),
        ...(form.username.trim() ? { username: form.username.trim() } : {}),
      },
    }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.users }),
  });
  const close = () => {
    setForm({ name: '', email: '', username: '', rootRole: EDITOR });
    create.reset();
    onClose();
  };
  const field = (key: 'name' | 'email' | 'username') => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.currentTarget.value }),
  });
  const nameless = !form.email.trim() && !form.username.trim();
  const link = create.data?.createUser.inviteLink;

  return (
    <Modal opened={opened} onClose={close} title="New user" centered size="lg">
      {link ? (
        <Stack>
          <Text size="sm">The user is created. Give them this link: it opens the page where they choose a password (valid 24 hours, once).</Text>
          <SecretField label="Invite link" value={link} />
          <Group justify="flex-end"><Button onClick={close}>Done</Button></Group>
        </Stack>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); if (!nameless) create.mutate(); }}>
          <Stack>
            <TextInput label="Name" data-autofocus autoComplete="off" {...field('name')} />
            <TextInput label="Email" type="email" autoComplete="off" {...field('email')} />
            <TextInput label="Username" description="A user signs in with the username or the email: give at least one." autoComplete="off" {...field('username')} />
            <Select label="Root role" required allowDeselect={false} data={roleOptions(roles.filter(isRootRole))} value={form.rootRole}
              onChange={(v) => setForm({ ...form, rootRole: v ?? EDITOR })} />
            <ErrorNotice error={create.error} title="The user was not created" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending} disabled={nameless}>Create user</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** A user's name, email and root role (the username is fixed: it is how they sign in). */
export function EditUserModal({ user, onClose, roles }: { user: EditableUser | null; onClose: () => void; roles: readonly RoleLike[] }) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `Edit ${personLabel(user)}` : 'Edit user'} centered>
      {user && <EditUserForm key={user.id} user={user} onClose={onClose} roles={roles} />}
    </Modal>
  );
}

function EditUserForm({ user, onClose, roles }: { user: EditableUser; onClose: () => void; roles: readonly RoleLike[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(user.name ?? '');
  const [email, setEmail] = useState(user.email ?? '');
  const [rootRole, setRootRole] = useState(String(user.rootRole));
  const save = useMutation({
    // An emptied email is sent as null (the service removes it, or refuses when it is the user's only sign-in name).
    mutationFn: () => gql(UpdateUserMutation, { input: { id: user.id, name: name.trim(), email: email.trim() || null, rootRole } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.users });
      onClose();
    },
  });
  return (
    <form onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
      <Stack>
        {user.username && <TextInput label="Username" value={user.username} readOnly description="How they sign in; it cannot be changed." />}
        <TextInput label="Name" data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Select label="Root role" required allowDeselect={false} data={roleOptions(roles.filter(isRootRole))} value={rootRole}
          onChange={(v) => setRootRole(v ?? rootRole)} />
        <ErrorNotice error={save.error} title="The user was not changed" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={save.isPending}>Save</Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A password reset link for a user, asked for with a button (a new link ends the user's older ones, so none is made
 * just by opening the dialog), then shown once with "Copy".
 */
export function ResetLinkModal({ user, onClose }: { user: EditableUser | null; onClose: () => void }) {
  const create = useMutation({ mutationFn: (login: string) => gql(ResetLinkMutation, { input: { id: login } }) });
  const close = () => { create.reset(); onClose(); };
  const login = user?.username || user?.email || '';
  const link = create.data?.createPasswordResetLink.resetPasswordUrl;
  return (
    <Modal opened={user !== null} onClose={close} title={user ? `Reset the password of ${personLabel(user)}` : 'Reset password'} centered size="lg"
     >
      {link ? (
        <Stack>
          <SecretField label="Reset link" value={link} description="Shown once: valid 24 hours, once. Older links of this user no longer work." />
          <Group justify="flex-end"><Button onClick={close}>Done</Button></Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">A link with which the user chooses a new password. Their current password keeps working until they do.</Text>
          <ErrorNotice error={create.error} title="No link was created" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button loading={create.isPending} onClick={() => create.mutate(login)}>Create reset link</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
