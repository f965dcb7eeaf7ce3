import { Button, Group, Modal, NumberInput, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { legalValueProblems, nameProblem, newLegalValue, toLegalValuesInput } from '../../logic/definitions';
import { CONTEXT_FIELD_KEYS } from './keys';
import { LegalValuesEditor } from './LegalValuesEditor';

const CreateContextField = graphql(`
  mutation DefinitionsCreateContextField($input: CreateContextFieldInput!) { createContextField(input: $input) { name } }
`);
const UpdateContextField = graphql(`
  mutation DefinitionsUpdateContextField($input: UpdateContextFieldInput!) { updateContextField(input: $input) { name } }
`);

export interface ContextFieldValues {
  name: string;
  description?: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: ReadonlyArray<{ value: string; description?: string | null }>;
}

/**
 * "New context field" or editing one: name (fixed once made), description, stickiness, sort order and the legal values
 * (the update replaces the whole list). Remount it (a `key`) to start from other values.
 */
export function ContextFieldForm({ editing, onClose }: { editing: ContextFieldValues | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [stickiness, setStickiness] = useState(editing?.stickiness ?? false);
  const [sortOrder, setSortOrder] = useState<number | string>(editing?.sortOrder ?? 10);
  const [legal, setLegal] = useState(() => (editing?.legalValues ?? []).map((v) => newLegalValue(v.value, v.description ?? '')));
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const fields = {
        name: editing?.name ?? name,
        description: description.trim() || null,
        stickiness,
        sortOrder: typeof sortOrder === 'number' ? sortOrder : Number(sortOrder) || 0,
        legalValues: toLegalValuesInput(legal),
      };
      if (editing) await gql(UpdateContextField, { input: fields });
      else await gql(CreateContextField, { input: fields });
    },
    onSuccess: async () => {
      await Promise.all(CONTEXT_FIELD_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClose();
    },
  });
  const nameError = editing ? null : nameProblem(name);
  const problems = legalValueProblems(legal);

  return (
    <Modal opened onClose={onClose} size="lg" title={editing ? `Edit ${editing.name}` : 'New context field'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!nameError && problems.every((p) => !p)) save.mutate();
        }}
      >
        <Stack>
          {editing ? (
            <TextInput label="Name" value={editing.name} readOnly description="A context field cannot be renamed." />
          ) : (
            <TextInput label="Name" required data-autofocus value={name} error={(touched || name !== '') && nameError}
              description="As the SDKs send it in the context (properties included)." onChange={(e) => setName(e.currentTarget.value)} />
          )}
          <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group grow align="flex-start">
            <Switch label="Stickiness" description="Offer it as a rollout's stickiness." checked={stickiness} onChange={(e) => setStickiness(e.currentTarget.checked)} mt="sm" />
            <NumberInput label="Sort order" description="Lower first in pickers." value={sortOrder} onChange={setSortOrder} allowDecimal={false} min={-1_000_000} max={1_000_000} />
          </Group>
          <LegalValuesEditor value={legal} onChange={setLegal} problems={touched ? problems : []} />
          <ErrorNotice error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{editing ? 'Save' : 'Create context field'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
