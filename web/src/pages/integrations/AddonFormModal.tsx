import { MultiSelect, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import { useSaveAddon, useScopes } from '../../data/integrations';
import { addonFormErrors, addonInput, draftFromAddon, emptyAddonDraft, eventChoices, type AddonDraft, type ProviderDefinition, type StoredAddon } from '../../logic/addon-form';
import { ParameterField } from './ParameterField';

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

/** The draft as the form's values (a type alias: the form takes records). */
type AddonValues = { [K in keyof AddonDraft]: AddonDraft[K] };

/**
 * A new addon of a provider, or an addon's changes: its parameters, events and filters, from the provider's definitions.
 * Mounted while open (the page keys it by addon or provider), so each opening starts from the stored values. What is
 * wrong is said at the first "Create", under each field.
 */
export function AddonFormModal({ provider, addon, onClose }: AddonFormModalProps) {
  const scopes = useScopes();
  const save = useSaveAddon(addon?.id);
  const form = useForm<AddonValues>({
    initialValues: addon ? draftFromAddon(addon, provider) : emptyAddonDraft(provider),
    validate: (values) => addonFormErrors(values, provider),
  });
  const { values } = form;

  return (
    <FormModal title={addon ? `Edit ${provider.displayName} addon` : `New ${provider.displayName} addon`} size="lg" form={form} mutation={save}
      submitLabel={addon ? 'Save addon' : 'Create addon'} onClose={onClose} onSubmit={(v) => save.mutate(addonInput(v, provider), { onSuccess: onClose })}>
      {provider.parameters.map((p) => (
        <ParameterField key={p.name} definition={p} stored={values.stored.includes(p.name)} {...form.getInputProps(`parameters.${p.name}`)} />
      ))}
      <MultiSelect label="Events" required description="The audit events sent to this addon." searchable data={eventChoices(provider, values.events)}
        clearable clearButtonProps={{ 'aria-label': 'Clear events' }} {...form.getInputProps('events')} />
      <MultiSelect label="Projects" description="Only events of these projects; empty for every project." placeholder={values.projects.length ? undefined : 'All projects'}
        data={scopes.projects} searchable clearable clearButtonProps={{ 'aria-label': 'Clear projects' }} {...form.getInputProps('projects')} />
      <MultiSelect label="Environments" description="Only events of these environments; empty for every environment." placeholder={values.environments.length ? undefined : 'All environments'}
        data={scopes.environments} clearable clearButtonProps={{ 'aria-label': 'Clear environments' }} {...form.getInputProps('environments')} />
      <TextInput label="Description" maxLength={1000} {...form.getInputProps('description')} />
      <Switch label="Enabled" description="A disabled addon is sent nothing." {...form.getInputProps('enabled', { type: 'checkbox' })} />
      {Object.keys(form.errors).length > 0 && <Text size="sm" c="red.8" role="status">Fix the fields marked above first.</Text>}
      <ErrorNotice error={scopes.error} title="The projects and environments could not be read" />
    </FormModal>
  );
}
