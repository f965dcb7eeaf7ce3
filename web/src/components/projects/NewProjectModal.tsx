import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { idFromName, projectIdProblem } from '../../logic/flag-list';
import { ErrorNotice } from '../ErrorNotice';

const CreateProjectMutation = graphql(`
  mutation ProjectsCreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name }
  }
`);

/** "New project": id (checked as typed, offered from the name until edited), name and description → createProject. */
export function NewProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [idEdited, setIdEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: () => gql(CreateProjectMutation, { input: { id, name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      close();
    },
  });
  const close = () => {
    setName(''); setId(''); setIdEdited(false); setDescription(''); setTouched(false);
    create.reset();
    onClose();
  };
  const idProblem = projectIdProblem(id);
  const nameProblem = name.trim() === '' ? 'Give the project a name.' : null;

  return (
    <Modal opened={opened} onClose={close} title="New project" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!idProblem && !nameProblem) create.mutate();
        }}
      >
        <Stack>
          <TextInput label="Name" required data-autofocus value={name} error={touched && nameProblem}
            onChange={(e) => { setName(e.currentTarget.value); if (!idEdited) setId(idFromName(e.currentTarget.value)); }} />
          <TextInput label="Id" description="Part of the project's URLs and API paths; it cannot be changed later." required value={id}
            error={(touched || id !== '') && idProblem} onChange={(e) => { setId(e.currentTarget.value); setIdEdited(true); }} />
          <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <ErrorNotice error={create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={create.isPending}>Create project</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
