import { Select, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ConstraintEditor } from '../../components/constraints/ConstraintEditor';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useContextFields, useCreateSegment, useSegmentProjects, useUpdateSegment } from '../../data/definitions';
import {
  constraintErrorsOf, fromConstraint, hasErrors, legalValuesByField, toConstraintInput, validateConstraints, type ConstraintInputShape,
} from '../../logic/constraints';
import { DefinitionFormModal } from './DefinitionFormModal';

export interface SegmentValues {
  id: number;
  name: string;
  description?: string | null;
  project?: string | null;
  constraints: readonly ConstraintInputShape[];
  usedInProjects: number;
}

/**
 * "New segment" or editing one: name, description, the project whose strategies alone may use it (none: every
 * project's), and its constraints in the shared constraint editor. Remount it (a `key`) to start from other values.
 */
export function SegmentForm({ editing, onClose }: { editing: SegmentValues | null; onClose(): void }) {
  const projects = useSegmentProjects();
  const fields = useContextFields();
  const create = useCreateSegment();
  const update = useUpdateSegment();
  const save = editing ? update : create;
  // The constraint editor keeps its own list (as in the strategy form); the form checks it with the rest when sent.
  const [constraints, setConstraints] = useState(() => (editing?.constraints ?? []).map(fromConstraint));
  const checked = validateConstraints(constraints, legalValuesByField(fields.data));
  const form = useForm({
    initialValues: { name: editing?.name ?? '', description: editing?.description ?? '', project: editing?.project ?? (null as string | null) },
    validate: ({ name }) => ({
      name: name.trim() === '' ? 'Give the segment a name.' : name.length > 100 ? 'At most 100 characters.' : null,
      // No field of the form: set when a send was stopped by the constraints, whose own messages then show.
      constraints: checked.some(hasErrors) ? 'Some constraints are incomplete.' : null,
    }),
  });
  // Before sending: this form's checks; after a refusal: the service's, on the constraint fields they name.
  const placed = constraintErrorsOf(save.error);
  const constraintErrors = form.errors.constraints ? checked.map((c, i) => (hasErrors(c) ? c : placed[i])) : placed;
  const projectData = (projects.data ?? []).map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }));

  return (
    <DefinitionFormModal
      noun="segment"
      editing={editing?.name}
      editTitle={`Edit segment ${editing?.name}`}
      size="xl"
      form={form}
      mutation={save}
      onClose={onClose}
      onSubmit={(v) => {
        const input = { name: v.name.trim(), description: v.description.trim() || null, project: v.project, constraints: constraints.map(toConstraintInput) };
        if (editing) update.mutate({ id: editing.id, ...input }, { onSuccess: onClose });
        else create.mutate(input, { onSuccess: onClose });
      }}
    >
      <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <Select
        label="Project"
        description={editing && editing.usedInProjects > 1
          ? 'Strategies of several projects use it: it can only stay global.'
          : 'Only strategies of this project may use it; empty for every project.'}
        placeholder="Every project (global)"
        data={projectData}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear project' }}
        searchable
        {...form.getInputProps('project')}
      />
      <ErrorNotice error={projects.error} title="The projects could not be read" />
      <ConstraintEditor value={constraints} onChange={setConstraints} errors={constraintErrors} emptyText="No constraints: the segment matches every context." />
    </DefinitionFormModal>
  );
}
