import '@mantine/dates/styles.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { isoToPicker, pickerToIso } from '../../logic/constraints';
import type { TokenRow } from './TokenTable';

const UpdateTokenMutation = graphql(`
  mutation ApiTokensUpdateExpiry($input: UpdateApiTokenInput!) {
    updateApiToken(input: $input) { id expiresAt }
  }
`);

/**
 * A token's new expiry (updateApiToken). The service takes a date only: a token cannot be made to never expire again,
 * and a date in the past revokes it at that moment.
 */
export function TokenExpiryModal({ token, onClose }: { token: TokenRow | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState<string>('');
  const update = useMutation({
    mutationFn: (t: TokenRow) => gql(UpdateTokenMutation, { input: { token: String(t.id), expiresAt: value } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
      close();
    },
  });
  const close = () => {
    setValue('');
    update.reset();
    onClose();
  };
  const shown = value || token?.expiresAt || '';
  return (
    <Modal opened={token !== null} onClose={close} title={token ? `Expiry of ${token.tokenName}` : 'Expiry'} centered>
      <form noValidate onSubmit={(e) => {
        e.preventDefault();
        if (token && value) update.mutate(token);
      }}>
        <Stack>
          <Text size="sm">The token stops working at this time. A time in the past ends it at once.</Text>
          <DateTimePicker label="Expires" required description="Your local time" placeholder="Pick a date and time"
            value={shown ? isoToPicker(shown) : null} onChange={(v) => setValue(pickerToIso(v))} valueFormat="YYYY-MM-DD HH:mm"
            submitButtonProps={{ 'aria-label': 'Set expiry' }}
            timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes', 'aria-label': 'Time' }}
            nextLabel="Next month" previousLabel="Previous month" />
          <ErrorNotice error={update.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" disabled={!value} loading={update.isPending}>Save expiry</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
