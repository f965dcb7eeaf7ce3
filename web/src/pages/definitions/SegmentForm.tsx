import { Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/errors';
import { gql } from '../../api/client';
import { ConstraintEditor } from '../../components/constraints/ConstraintEditor';
import { legalValuesByField, useContextFields } from '../../components/constraints/contextFields';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import {
  constraintErrorAt, fromConstraint, hasErrors, toConstraintInput, validateConstraints, type ConstraintErrors, type ConstraintInputShape,
} from '../../logic/constraints';
import { SEGMENT_KEYS } from './keys';

const SegmentProjects = graphql(`query DefinitionsSegmentProjects { projects { id name } }`);
const CreateSegment = graphql(`
  mutation DefinitionsCreateSegment($input: CreateSegmentInput!) { createSegment(input: $input) { id } }
`);
const UpdateSegment = graphql(`
  mutation DefinitionsUpdateSegment($input: UpdateSegmentInput!) { updateSegment(input: $input) { id } }
`);

export interface SegmentValues {
  id: number;
  name: string;
  description?: string | null;
  project?: string | null;
  constraints: readonly ConstraintInputShape[];
  usedInProjects: number;
}

/** The service's refusal details that name a constraint's field, placed on that field. */
function placedConstraintErrors(error: unknown): ConstraintErrors[] {
  const out: ConstraintErrors[] = [];
  if (!(error instanceof ApiError)) return out;
  for (const d of error.details) {
    const at = d.path ? constraintErrorAt(d.path) : null;
    if (at) out[at.index] = { ...out[at.index], [at.field]: d.message };
  }
  return out;
}

/**
 * "New segment" or editing one: name, description, the project whose strategies alone may use it (none: every
 * project's), and its constraints in the shared constraint editor. Remount it (a `key`) to start from other values.
 */
export function SegmentForm({ editing, onClose }: { editing: SegmentValues | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const projects = useQuery({ queryKey: ['definitions', 'segmentProjects'], queryFn: () => gql(SegmentProjects), staleTime: 60_000 });
  const fields = useContextFields();
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [project, setProject] = useState<string | null>(editing?.project ?? null);
  const [constraints, setConstraints] = useState(() => (editing?.constraints ?? []).map(fromConstraint));
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const input = { name: name.trim(), description: description.trim() || null, project, constraints: constraints.map(toConstraintInput) };
      if (editing) await gql(UpdateSegment, { input: { id: editing.id, ...input } });
      else await gql(CreateSegment, { input });
    },
    onSuccess: async () => {
      await Promise.all(SEGMENT_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClose();
    },
  });
  const nameError = name.trim() === '' ? 'Give the segment a name.' : name.length > 100 ? 'At most 100 characters.' : null;
  const checked = validateConstraints(constraints, legalValuesByField(fields.data));
  // Before sending: this form's checks; after a refusal: the service's, on the constraint fields they name.
  const placed = placedConstraintErrors(save.error);
  const constraintErrors = touched ? checked.map((c, i) => (hasErrors(c) ? c : placed[i])) : placed;
  const projectData = (projects.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }));

  return (
    <Modal opened onClose={onClose} size="xl" title={editing ? `Edit segment ${editing.name}` : 'New segment'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!nameError && !checked.some(hasErrors)) save.mutate();
        }}
      >
        <Stack>
          <TextInput label="Name" required data-autofocus value={name} error={touched && nameError} onChange={(e) => setName(e.currentTarget.value)} />
          <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Select
            label="Project"
            description={editing && editing.usedInProjects > 1
              ? 'Strategies of several projects use it: it can only stay global.'
              : 'Only strategies of this project may use it; empty for every project.'}
            placeholder="Every project (global)"
            data={projectData}
            value={project}
            onChange={setProject}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear project' }}
            searchable
          />
          <ErrorNotice error={projects.error} title="The projects could not be read" />
          <ConstraintEditor
            value={constraints}
            onChange={setConstraints}
            errors={constraintErrors}
            emptyText="No constraints: the segment matches every context."
          />
          <ErrorNotice error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{editing ? 'Save' : 'Create segment'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
