import { Select, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { FormModal } from '../form/FormModal';
import { useCreateFlag } from '../../data/projects';
import { flagNameProblem } from '../../logic/flag-list';
import { links } from '../../routing/links';

export interface NewFlagModalProps {
  onClose: () => void;
  projectId: string;
  featureTypes: Array<{ id: string; name: string }>;
  /** The project's naming pattern, shown to help (the service checks it). */
  naming?: { pattern?: string | null; example?: string | null; description?: string | null } | null;
  /** The name to start with (an unknown flag's). */
  initialName?: string;
  /** With them, a Project field (starting on `projectId`): the flag is created in the one chosen. */
  projects?: Array<{ id: string; name: string }>;
}

/** "New flag": name, type, description and impression data → createFeature, then the new flag's page. */
export function NewFlagModal({ onClose, projectId, featureTypes, naming, initialName = '', projects }: NewFlagModalProps) {
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { name: initialName, project: projectId, type: 'release', description: '', impressionData: false },
    validate: { name: flagNameProblem },
    validateInputOnChange: ['name'],
  });
  const create = useCreateFlag(form.values.project);
  const hint = naming?.pattern ? `Must match ${naming.pattern}${naming.example ? `, for example ${naming.example}` : ''}${naming.description ? `. ${naming.description}` : ''}` : 'Unique in the whole instance; part of URLs.';

  return (
    <FormModal
      title="New flag"
      size="lg"
      form={form}
      mutation={create}
      submitLabel="Create flag"
      onClose={onClose}
      onSubmit={({ name, type, description, impressionData }) => create.mutate(
        { name: name.trim(), type, impressionData, ...(description.trim() ? { description: description.trim() } : {}) },
        { onSuccess: (flag) => { onClose(); navigate(links.flag(flag.project, flag.name)); } },
      )}
    >
      <TextInput label="Name" description={hint} required data-autofocus {...form.getInputProps('name')} />
      {projects && (
        <Select label="Project" data={projects.map((p) => ({ value: p.id, label: p.name }))} allowDeselect={false} searchable {...form.getInputProps('project')} />
      )}
      <Select label="Type" data={featureTypes.map((t) => ({ value: t.id, label: t.name }))} allowDeselect={false} {...form.getInputProps('type')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <Switch label="Impression data" description="SDKs emit an impression event each time the flag is evaluated."
        {...form.getInputProps('impressionData', { type: 'checkbox' })} />
    </FormModal>
  );
}
