import { Button, Group, Modal, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { ErrorNotice } from '../ErrorNotice';
import { links } from '../../routing/links';

const CreateFeatureMutation = graphql(`
  mutation ProjectFlagsCreateFeature($input: CreateFeatureInput!) {
    createFeature(input: $input) { name project }
  }
`);

export interface NewFlagModalProps {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  featureTypes: Array<{ id: string; name: string }>;
  /** The project's naming pattern, shown to help (the service checks it). */
  naming?: { pattern?: string | null; example?: string | null; description?: string | null } | null;
}

/** "New flag": name, type, description and impression data → createFeature, then the new flag's page. */
export function NewFlagModal({ opened, onClose, projectId, featureTypes, naming }: NewFlagModalProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [type, setType] = useState<string | null>('release');
  const [description, setDescription] = useState('');
  const [impressionData, setImpressionData] = useState(false);
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: () => gql(CreateFeatureMutation, {
      input: { project: projectId, name: name.trim(), type: type ?? 'release', impressionData, ...(description.trim() ? { description: description.trim() } : {}) },
    }),
    onSuccess: async ({ createFeature }) => {
      await queryClient.invalidateQueries({ queryKey: ['project-flags', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      close();
      navigate(links.flag(createFeature.project, createFeature.name));
    },
  });
  const close = () => {
    setName(''); setType('release'); setDescription(''); setImpressionData(false); setTouched(false);
    create.reset();
    onClose();
  };
  const nameProblem = name.trim() === '' ? 'Give the flag a name.' : /^[a-zA-Z0-9~_.-]+$/.test(name.trim()) ? null : 'Only letters, digits and ~ _ . - (it is part of URLs).';
  const hint = naming?.pattern ? `Must match ${naming.pattern}${naming.example ? `, for example ${naming.example}` : ''}${naming.description ? `. ${naming.description}` : ''}` : 'Unique in the whole instance; part of URLs.';

  return (
    <Modal opened={opened} onClose={close} title="New flag" centered size="lg">
      <form onSubmit={(e) => { e.preventDefault(); setTouched(true); if (!nameProblem) create.mutate(); }}>
        <Stack>
          <TextInput label="Name" description={hint} required data-autofocus value={name} error={(touched || name !== '') && nameProblem}
            onChange={(e) => setName(e.currentTarget.value)} />
          <Select label="Type" data={featureTypes.map((t) => ({ value: t.id, label: t.name }))} value={type} onChange={setType} allowDeselect={false} />
          <Textarea label="Description" autosize minRows={2} maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Switch label="Impression data" description="SDKs emit an impression event each time the flag is evaluated."
            checked={impressionData} onChange={(e) => setImpressionData(e.currentTarget.checked)} />
          <ErrorNotice error={create.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={create.isPending}>Create flag</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
