import { Autocomplete, NumberInput, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCreateEnvironment, useUpdateEnvironment } from '../../data/definitions';
import { nameProblem, toSortOrder } from '../../logic/definitions';
import { DefinitionFormModal } from './DefinitionFormModal';
import { NameField } from './NameField';

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
  const create = useCreateEnvironment();
  const update = useUpdateEnvironment();
  const form = useForm({
    initialValues: { name: editing?.name ?? '', type: editing?.type ?? 'development', sortOrder: (editing?.sortOrder ?? nextSortOrder) as number | string, enabled: true },
    validate: {
      name: (name) => (editing ? null : nameProblem(name)),
      type: (type) => (type.trim() === '' ? 'Give it a type.' : type.length > 100 ? 'At most 100 characters.' : null),
    },
    // The name is checked as it is typed; the type once the form is sent.
    validateInputOnChange: ['name'],
  });
  const submit = (v: typeof form.values) => {
    const fields = { type: v.type.trim(), sortOrder: toSortOrder(v.sortOrder) };
    if (editing) update.mutate({ name: editing.name, ...fields }, { onSuccess: onClose });
    else create.mutate({ name: v.name, ...fields, enabled: v.enabled }, { onSuccess: onClose });
  };

  return (
    <DefinitionFormModal
      noun="environment"
      editing={editing?.name}
      form={form}
      mutation={editing ? update : create}
      onClose={onClose}
      onSubmit={submit}
    >
      <NameField fixed={editing?.name} fixedNote="An environment cannot be renamed." description="Part of API paths and SDK settings."
        inputProps={form.getInputProps('name')} />
      <Autocomplete label="Type" required data={TYPES} description="What it is for; production types are treated with more care."
        {...form.getInputProps('type')} />
      <NumberInput label="Sort order" description="Lower first in lists; ties by name." allowDecimal={false} min={-1_000_000} max={1_000_000}
        {...form.getInputProps('sortOrder')} />
      {!editing && (
        <Switch label="Enabled" description="A disabled environment is hidden from projects." {...form.getInputProps('enabled', { type: 'checkbox' })} />
      )}
    </DefinitionFormModal>
  );
}
