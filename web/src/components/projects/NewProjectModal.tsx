import { TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormModal } from '../form/FormModal';
import { useCreateProject } from '../../data/projects';
import { idFromName, projectIdProblem } from '../../logic/flag-list';

/** "New project": id (checked as typed, offered from the name until edited), name and description → createProject. */
export function NewProjectModal({ onClose }: { onClose(): void }) {
  const create = useCreateProject();
  const [idEdited, setIdEdited] = useState(false);
  const form = useForm({
    initialValues: { name: '', id: '', description: '' },
    validate: {
      name: (name) => (name.trim() === '' ? 'Give the project a name.' : null),
      id: projectIdProblem,
    },
    // The id is checked as it is typed (or offered from the name); the name once the form is sent.
    validateInputOnChange: ['id'],
  });
  const nameProps = form.getInputProps('name');
  // An empty id waits for the form to be sent before it is called a problem (as the name does).
  const setId = (id: string) => { form.setFieldValue('id', id); if (id === '') form.clearFieldError('id'); };

  return (
    <FormModal
      title="New project"
      form={form}
      mutation={create}
      submitLabel="Create project"
      onClose={onClose}
      onSubmit={({ name, id, description }) => create.mutate(
        { id, name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
        { onSuccess: onClose },
      )}
    >
      <TextInput label="Name" required data-autofocus {...nameProps}
        onChange={(e) => { nameProps.onChange(e); if (!idEdited) setId(idFromName(e.currentTarget.value)); }} />
      <TextInput label="Id" description="Part of the project's URLs and API paths; it cannot be changed later." required {...form.getInputProps('id')}
        onChange={(e) => { setId(e.currentTarget.value); setIdEdited(true); }} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
    </FormModal>
  );
}
