import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { PARAMETER_TYPES, nameProblem, newParameter, parameterProblems, toParametersInput, type ParameterKind } from '../../logic/definitions';
import { STRATEGY_KEYS } from './keys';
import { ParametersEditor } from './ParametersEditor';

const CreateStrategy = graphql(`
  mutation DefinitionsCreateStrategy($input: CreateStrategyInput!) { createStrategy(input: $input) { name } }
`);
const UpdateStrategy = graphql(`
  mutation DefinitionsUpdateStrategy($input: UpdateStrategyInput!) { updateStrategy(input: $input) { name } }
`);

export interface StrategyValues {
  name: string;
  displayName?: string | null;
  description?: string | null;
  parameters: ReadonlyArray<{ name: string; type: string; description: string; required: boolean }>;
}

const asKind = (t: string): ParameterKind => ((PARAMETER_TYPES as readonly string[]).includes(t) ? (t as ParameterKind) : 'string');

/**
 * "New strategy type" or editing a custom one: name (fixed once made), display name, description and its declared
 * parameters (the update replaces them). Remount it (a `key`) to start from other values.
 */
export function StrategyForm({ editing, onClose }: { editing: StrategyValues | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [displayName, setDisplayName] = useState(editing?.displayName ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [params, setParams] = useState(() => (editing?.parameters ?? []).map((p) => newParameter({ ...p, type: asKind(p.type) })));
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const fields = {
        name: editing?.name ?? name,
        displayName: displayName.trim() || null,
        description: description.trim() || null,
        parameters: toParametersInput(params),
      };
      if (editing) await gql(UpdateStrategy, { input: fields });
      else await gql(CreateStrategy, { input: fields });
    },
    onSuccess: async () => {
      await Promise.all(STRATEGY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClose();
    },
  });
  const nameError = editing ? null : nameProblem(name);
  const problems = parameterProblems(params);

  return (
    <Modal opened onClose={onClose} size="lg" title={editing ? `Edit ${editing.name}` : 'New strategy type'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!nameError && problems.every((p) => !p)) save.mutate();
        }}
      >
        <Stack>
          {editing ? (
            <TextInput label="Name" value={editing.name} readOnly description="A strategy type cannot be renamed." />
          ) : (
            <TextInput label="Name" required data-autofocus value={name} error={(touched || name !== '') && nameError}
              description="What SDKs register the strategy's implementation under." onChange={(e) => setName(e.currentTarget.value)} />
          )}
          <TextInput label="Display name" maxLength={100} value={displayName} onChange={(e) => setDisplayName(e.currentTarget.value)} />
          <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <ParametersEditor value={params} onChange={setParams} problems={touched ? problems : []} />
          <ErrorNotice error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{editing ? 'Save' : 'Create strategy type'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
