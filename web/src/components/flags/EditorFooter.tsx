import { Button, Group } from '@mantine/core';
import { ErrorNotice } from '../ErrorNotice';

interface EditorFooterProps {
  /** The change the editor sends (a data module's mutation hook): its refusal and its pending state. */
  mutation: { isPending: boolean; error: unknown };
  /** The change goes into the user's draft change request instead of applying, and the button says so. */
  drafting: boolean;
  /** What the editor itself found wrong when a save was tried, shown above the buttons. */
  problem?: React.ReactNode;
  onCancel(): void;
  onSave(): void;
}

/**
 * The end of a flag's deep editors (strategy, variants), which keep their own state: the service's refusal, then
 * Cancel and Save (or "Add to draft"), as FormModal ends the other forms.
 */
export function EditorFooter({ mutation, drafting, problem, onCancel, onSave }: EditorFooterProps) {
  return (
    <>
      <ErrorNotice error={mutation.error} />
      {problem}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>Cancel</Button>
        <Button loading={mutation.isPending} onClick={onSave}>{drafting ? 'Add to draft' : 'Save'}</Button>
      </Group>
    </>
  );
}
