import { Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';

/**
 * What a form made and the service shows once (a secret, an invite or reset link), in a dialog of the form's title, so
 * it reads as the form's last step; "Done" closes it.
 */
export function ShownOnceModal({ title, size = 'lg', onClose, children }: { title: string; size?: ModalProps['size']; onClose(): void; children: React.ReactNode }) {
  return (
    <Modal opened onClose={onClose} title={title} centered size={size}>
      <Stack>
        {children}
        <Group justify="flex-end"><Button onClick={onClose}>Done</Button></Group>
      </Stack>
    </Modal>
  );
}
