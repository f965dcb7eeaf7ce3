import { Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { SecretField } from '../../components/SecretField';
import { useCreateSignupLink } from '../../data/access';
import { expiryIn, isRootRole, roleOptions, SIGNUP_EXPIRY, type RoleLike } from '../../logic/access';
import { ExpirySelect } from './ExpirySelect';
import { ShownOnceModal } from './ShownOnceModal';

const VIEWER = '3';

/** "New signup link": name, the root role of those who sign up, expiry; then the link to share, with "Copy". Mounted while open. */
export function NewSignupLinkModal({ onClose, roles }: { onClose: () => void; roles: readonly RoleLike[] }) {
  const create = useCreateSignupLink();
  const form = useForm({
    initialValues: { name: '', role: VIEWER, days: '7' },
    validate: { name: (name) => (name.trim() ? null : 'Give the link a name.') },
  });
  const url = create.data?.createPublicSignupToken.url;
  if (url) {
    return (
      <ShownOnceModal title="New signup link" onClose={onClose}>
        <SecretField label="Signup link" value={url} description="Whoever opens it can create an account until it expires or is disabled; it stays listed on this page." />
      </ShownOnceModal>
    );
  }
  return (
    <FormModal title="New signup link" errorTitle="No link was created" size="lg" form={form} mutation={create} submitLabel="Create link" onClose={onClose}
      onSubmit={(v) => create.mutate({ name: v.name.trim(), role: v.role, expiresAt: expiryIn(SIGNUP_EXPIRY.find((c) => c.value === v.days)?.days ?? 7) })}>
      <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
      <Select label="Root role" description="The role of everyone who signs up with the link." allowDeselect={false}
        data={roleOptions(roles.filter(isRootRole))} {...form.getInputProps('role')} />
      <ExpirySelect choices={SIGNUP_EXPIRY} {...form.getInputProps('days')} />
    </FormModal>
  );
}
