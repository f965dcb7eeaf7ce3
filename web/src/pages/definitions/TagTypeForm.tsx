import { Textarea } from '@mantine/core';
import { useCreateTagType, useUpdateTagType } from '../../data/definitions';
import { nameProblem } from '../../logic/definitions';
import { DefinitionFormModal } from './DefinitionFormModal';
import { NameField } from './NameField';
import { useDefinitionForm } from './useDefinitionForm';

export interface TagTypeValues {
  name: string;
  description?: string | null;
}

/** "New tag type" (name 2..50, description) or editing one's description. Remount it (a `key`) to start from other values. */
export function TagTypeForm({ editing, onClose }: { editing: TagTypeValues | null; onClose(): void }) {
  const { form, modal } = useDefinitionForm({
    editing: editing?.name,
    initialValues: { name: editing?.name ?? '', description: editing?.description ?? '' },
    nameRule: (name) => nameProblem(name, 2, 50),
    create: useCreateTagType(),
    update: useUpdateTagType(),
    toInput: (v) => ({ description: v.description.trim() }),
    onClose,
  });

  return (
    <DefinitionFormModal noun="tag type" {...modal}>
      <NameField fixed={editing?.name} fixedNote="A tag type cannot be renamed." description="2 to 50 letters, digits or ~ _ . -"
        inputProps={form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
    </DefinitionFormModal>
  );
}
