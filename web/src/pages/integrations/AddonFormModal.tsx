import { Button, Group, Modal, MultiSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import {
  addonDraftProblems, addonInput, draftFromAddon, emptyAddonDraft, eventChoices, hasProblems, type AddonDraft, type ProviderDefinition, type StoredAddon,
} from '../../logic/addon-form';
import { ParameterField } from './ParameterField';
import { useScopes } from './shared';

const CreateAddonMutation = graphql(`
  mutation AddonsCreate($input: CreateAddonInput!) {
    createAddon(input: $input) { id }
  }
`);

const UpdateAddonMutation = graphql(`
  mutation AddonsUpdate($input: UpdateAddonInput!) {
    updateAddon(input: $input) { id }
  }
`);

export interface EditedAddon extends StoredAddon {
  id: number;
}

interface AddonFormModalProps {
  /** The provider of the addon being created or edited. */
  provider: ProviderDefinition;
  /** The addon edited; absent for a new one. */
  addon?: EditedAddon | null;
  onClose(): void;
}

/**
 * A new addon of a provider, or an addon's changes: its parameters, events and filters, from the provider's definitions.
 * Mounted while open (the page keys it by addon or provider), so each opening starts from the stored values.
 */
export function AddonFormModal({ provider, addon, onClose }: AddonFormModalProps) {
  const queryClient = useQueryClient();
  const scopes = useScopes();
  const [draft, setDraft] = useState<AddonDraft>(() => (addon ? draftFromAddon(addon, provider) : emptyAddonDraft(provider)));
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: async (input: ReturnType<typeof addonInput>): Promise<number> => (addon
      ? (await gql(UpdateAddonMutation, { input: { ...input, id: addon.id } })).updateAddon.id
      : (await gql(CreateAddonMutation, { input })).createAddon.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['addons'] });
      close();
    },
  });
  const close = () => {
    save.reset();
    onClose();
  };
  const set = (patch: Partial<AddonDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const problems = addonDraftProblems(draft, provider);
  const title = addon ? `Edit ${provider.displayName} addon` : `New ${provider.displayName} addon`;

  return (
    <Modal opened onClose={close} title={title} centered size="lg">
      <form noValidate onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!hasProblems(problems)) save.mutate(addonInput(draft, provider));
      }}>
        <Stack>
          {provider.parameters.map((p) => (
            <ParameterField key={p.name} definition={p} value={draft.parameters[p.name] ?? ''} stored={draft.stored.includes(p.name)}
              error={touched ? problems.parameters[p.name] : null}
              onChange={(value) => set({ parameters: { ...draft.parameters, [p.name]: value } })} />
          ))}
          <MultiSelect label="Events" required description="The audit events sent to this addon." searchable
            data={eventChoices(provider, draft.events)} value={draft.events} onChange={(events) => set({ events })}
            error={touched && problems.events} clearable clearButtonProps={{ 'aria-label': 'Clear events' }} />
          <MultiSelect label="Projects" description="Only events of these projects; empty for every project." placeholder={draft.projects.length ? undefined : 'All projects'}
            data={scopes.projects} value={draft.projects} onChange={(projects) => set({ projects })} searchable clearable
            clearButtonProps={{ 'aria-label': 'Clear projects' }} />
          <MultiSelect label="Environments" description="Only events of these environments; empty for every environment." placeholder={draft.environments.length ? undefined : 'All environments'}
            data={scopes.environments} value={draft.environments} onChange={(environments) => set({ environments })} clearable
            clearButtonProps={{ 'aria-label': 'Clear environments' }} />
          <TextInput label="Description" value={draft.description} maxLength={1000} onChange={(e) => set({ description: e.currentTarget.value })} />
          <Switch label="Enabled" description="A disabled addon is sent nothing." checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          {touched && hasProblems(problems) && <Text size="sm" c="red.8" role="status">Fix the fields marked above first.</Text>}
          <ErrorNotice error={save.error} />
          <ErrorNotice error={scopes.error} title="The projects and environments could not be read" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{addon ? 'Save addon' : 'Create addon'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
