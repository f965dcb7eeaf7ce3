import { Button, Group, Modal, Text } from '@mantine/core';
import { ErrorNotice } from './ErrorNotice';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: React.ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm(): void;
  onClose(): void;
}

/** A destructive action asked once more (a Mantine Modal), with the service's refusal shown inside when it says no. */
export function ConfirmDialog({ opened, title, message, confirmLabel, pending, error, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text size="sm">{message}</Text>
      <ErrorNotice error={error} />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button color="red" loading={pending} onClick={onConfirm}>{confirmLabel}</Button>
      </Group>
    </Modal>
  );
}
