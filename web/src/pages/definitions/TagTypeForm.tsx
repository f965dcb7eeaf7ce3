import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { nameProblem } from '../../logic/definitions';
import { TAG_TYPE_KEYS } from './keys';

const CreateTagType = graphql(`
  mutation DefinitionsCreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }
`);
const UpdateTagType = graphql(`
  mutation DefinitionsUpdateTagType($input: UpdateTagTypeInput!) { updateTagType(input: $input) { name } }
`);

export interface TagTypeValues {
  name: string;
  description?: string | null;
}

/** "New tag type" (name 2..50, description) or editing one's description. Remount it (a `key`) to start from other values. */
export function TagTypeForm({ editing, onClose }: { editing: TagTypeValues | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const fields = { name: editing?.name ?? name, description: description.trim() };
      if (editing) await gql(UpdateTagType, { input: fields });
      else await gql(CreateTagType, { input: fields });
    },
    onSuccess: async () => {
      await Promise.all(TAG_TYPE_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClose();
    },
  });
  const nameError = editing ? null : nameProblem(name, 2, 50);

  return (
    <Modal opened onClose={onClose} title={editing ? `Edit ${editing.name}` : 'New tag type'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!nameError) save.mutate();
        }}
      >
        <Stack>
          {editing ? (
            <TextInput label="Name" value={editing.name} readOnly description="A tag type cannot be renamed." />
          ) : (
            <TextInput label="Name" required data-autofocus value={name} error={(touched || name !== '') && nameError}
              description="2 to 50 letters, digits or ~ _ . -" onChange={(e) => setName(e.currentTarget.value)} />
          )}
          <Textarea label="Description" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <ErrorNotice error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{editing ? 'Save' : 'Create tag type'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
