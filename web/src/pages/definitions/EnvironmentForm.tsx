import { Autocomplete, Button, Group, Modal, NumberInput, Stack, Switch, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { nameProblem } from '../../logic/definitions';
import { ENVIRONMENT_KEYS } from './keys';

const CreateEnvironment = graphql(`
  mutation DefinitionsCreateEnvironment($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { name } }
`);
const UpdateEnvironment = graphql(`
  mutation DefinitionsUpdateEnvironment($input: UpdateEnvironmentInput!) { updateEnvironment(input: $input) { name } }
`);

/** The usual environment types, offered while typing (any other type is allowed). */
const TYPES = ['development', 'test', 'preproduction', 'production'];

export interface EnvironmentValues {
  name: string;
  type: string;
  sortOrder: number;
}

/**
 * "New environment" (name, type, sort order, whether it starts on) or editing one (its type and sort order: an
 * environment cannot be renamed). Remount it (a `key`) to start from other values.
 */
export function EnvironmentForm({ editing, nextSortOrder, onClose }: { editing: EnvironmentValues | null; nextSortOrder: number; onClose(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [type, setType] = useState(editing?.type ?? 'development');
  const [sortOrder, setSortOrder] = useState<number | string>(editing?.sortOrder ?? nextSortOrder);
  const [enabled, setEnabled] = useState(true);
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const order = typeof sortOrder === 'number' ? sortOrder : Number(sortOrder) || 0;
      if (editing) await gql(UpdateEnvironment, { input: { name: editing.name, type: type.trim(), sortOrder: order } });
      else await gql(CreateEnvironment, { input: { name, type: type.trim(), sortOrder: order, enabled } });
    },
    onSuccess: async () => {
      await Promise.all(ENVIRONMENT_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClose();
    },
  });
  const nameError = editing ? null : nameProblem(name);
  const typeError = type.trim() === '' ? 'Give it a type.' : type.length > 100 ? 'At most 100 characters.' : null;

  return (
    <Modal opened onClose={onClose} title={editing ? `Edit ${editing.name}` : 'New environment'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!nameError && !typeError) save.mutate();
        }}
      >
        <Stack>
          {editing ? (
            <TextInput label="Name" value={editing.name} readOnly description="An environment cannot be renamed." />
          ) : (
            <TextInput label="Name" required data-autofocus value={name} error={(touched || name !== '') && nameError}
              description="Part of API paths and SDK settings." onChange={(e) => setName(e.currentTarget.value)} />
          )}
          <Autocomplete label="Type" required data={TYPES} value={type} onChange={setType} error={touched && typeError}
            description="What it is for; production types are treated with more care." />
          <NumberInput label="Sort order" description="Lower first in lists; ties by name." value={sortOrder} onChange={setSortOrder}
            allowDecimal={false} min={-1_000_000} max={1_000_000} />
          {!editing && <Switch label="Enabled" description="A disabled environment is hidden from projects." checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />}
          <ErrorNotice error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{editing ? 'Save' : 'Create environment'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
