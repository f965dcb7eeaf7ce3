import { Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { useCreateTagType, useUpdateTagType } from '../../data/definitions';
import { nameProblem } from '../../logic/definitions';
import { NameField } from './NameField';

export interface TagTypeValues {
  name: string;
  description?: string | null;
}

/** "New tag type" (name 2..50, description) or editing one's description. Remount it (a `key`) to start from other values. */
export function TagTypeForm({ editing, onClose }: { editing: TagTypeValues | null; onClose(): void }) {
  const create = useCreateTagType();
  const update = useUpdateTagType();
  const save = editing ? update : create;
  const form = useForm({
    initialValues: { name: editing?.name ?? '', description: editing?.description ?? '' },
    validate: { name: (name) => (editing ? null : nameProblem(name, 2, 50)) },
    validateInputOnChange: true,
  });

  return (
    <FormModal
      title={editing ? `Edit ${editing.name}` : 'New tag type'}
      form={form}
      mutation={save}
      submitLabel={editing ? 'Save' : 'Create tag type'}
      onClose={onClose}
      onSubmit={(values) => save.mutate({ name: editing?.name ?? values.name, description: values.description.trim() }, { onSuccess: onClose })}
    >
      <NameField fixed={editing?.name} fixedNote="A tag type cannot be renamed." description="2 to 50 letters, digits or ~ _ . -"
        inputProps={form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
    </FormModal>
  );
}
