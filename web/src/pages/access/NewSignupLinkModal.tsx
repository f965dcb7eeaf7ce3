import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { SecretField } from '../../components/SecretField';
import { graphql } from '../../gql';
import { expiryIn, isRootRole, roleOptions, SIGNUP_EXPIRY, type RoleLike } from '../../logic/access';
import { accessKeys } from './queries';

const CreateSignupLinkMutation = graphql(`
  mutation AccessCreateSignupLink($input: CreatePublicSignupTokenInput!) {
    createPublicSignupToken(input: $input) { secret url }
  }
`);

const VIEWER = '3';

/** "New signup link": name, the root role of those who sign up, expiry; then the link to share, with "Copy". */
export function NewSignupLinkModal({ opened, onClose, roles }: { opened: boolean; onClose: () => void; roles: readonly RoleLike[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState(VIEWER);
  const [days, setDays] = useState('7');
  const create = useMutation({
    mutationFn: () => gql(CreateSignupLinkMutation, {
      input: { name: name.trim(), role, expiresAt: expiryIn(SIGNUP_EXPIRY.find((c) => c.value === days)?.days ?? 7) },
    }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.signupLinks }),
  });
  const close = () => { setName(''); setRole(VIEWER); setDays('7'); create.reset(); onClose(); };
  const url = create.data?.createPublicSignupToken.url;
  return (
    <Modal opened={opened} onClose={close} title="New signup link" centered size="lg">
      {url ? (
        <Stack>
          <SecretField label="Signup link" value={url} description="Whoever opens it can create an account until it expires or is disabled; it stays listed on this page." />
          <Group justify="flex-end"><Button onClick={close}>Done</Button></Group>
        </Stack>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
          <Stack>
            <TextInput label="Name" required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Select label="Root role" description="The role of everyone who signs up with the link." allowDeselect={false}
              data={roleOptions(roles.filter(isRootRole))} value={role} onChange={(v) => setRole(v ?? VIEWER)} />
            <Select label="Expires in" allowDeselect={false} data={SIGNUP_EXPIRY.map(({ value, label }) => ({ value, label }))} value={days}
              onChange={(v) => setDays(v ?? '7')} />
            <ErrorNotice error={create.error} title="No link was created" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending} disabled={!name.trim()}>Create link</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
