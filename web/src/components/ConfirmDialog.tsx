import { Button, Group, Modal, Text } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
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

interface ConfirmOptions<T> {
  title: (item: T) => string;
  message: (item: T) => React.ReactNode;
  /** The confirming button: "Delete" unless said otherwise ("Archive flag", "Revoke"). */
  confirmLabel?: string | ((item: T) => string);
}

/**
 * The one way to ask before a destructive change: `ask(item)` opens ConfirmDialog for the item, which sends the change
 * (a data module's mutation hook, which invalidates and announces it) and shows the service's refusal inside, next to
 * the button that caused it; the dialog closes once the change is made.
 */
export function useConfirm<T>(mutation: UseMutationResult<unknown, Error, T>, { title, message, confirmLabel = 'Delete' }: ConfirmOptions<T>) {
  const [item, setItem] = useState<{ value: T } | null>(null);
  const close = () => { setItem(null); mutation.reset(); };
  const dialog = (
    <ConfirmDialog
      opened={item !== null}
      title={item === null ? '' : title(item.value)}
      message={item === null ? '' : message(item.value)}
      confirmLabel={item === null || typeof confirmLabel === 'string' ? (typeof confirmLabel === 'string' ? confirmLabel : '') : confirmLabel(item.value)}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() => item !== null && mutation.mutate(item.value, { onSuccess: () => setItem(null) })}
      onClose={close}
    />
  );
  return { ask: (value: T) => { mutation.reset(); setItem({ value }); }, dialog };
}
