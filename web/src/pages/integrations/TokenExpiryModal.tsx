import { Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { useUpdateApiTokenExpiry } from '../../data/integrations';
import { ExpiryPicker } from './ExpiryPicker';
import type { TokenRow } from './TokenTable';

/**
 * A token's new expiry (updateApiToken). The service takes a date only: a token cannot be made to never expire again,
 * and a date in the past revokes it at that moment. Mounted while open.
 */
export function TokenExpiryModal({ token, onClose }: { token: TokenRow; onClose(): void }) {
  const update = useUpdateApiTokenExpiry();
  const form = useForm({
    initialValues: { expiresAt: token.expiresAt ?? '' },
    validate: { expiresAt: (iso) => (iso ? null : 'Pick the date and time it stops working.') },
  });
  return (
    <FormModal title={`Expiry of ${token.tokenName}`} form={form} mutation={update} submitLabel="Save expiry" onClose={onClose}
      onSubmit={(v) => update.mutate({ id: token.id, expiresAt: v.expiresAt }, { onSuccess: onClose })}>
      <Text size="sm">The token stops working at this time. A time in the past ends it at once.</Text>
      <ExpiryPicker label="Expires" required description="Your local time" placeholder="Pick a date and time" {...form.getInputProps('expiresAt')} />
    </FormModal>
  );
}
