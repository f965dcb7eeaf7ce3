import { Group, NumberInput, Switch, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useCreateContextField, useUpdateContextField } from '../../data/definitions';
import { legalValueProblems, newLegalValue, rowErrors, toLegalValuesInput, toSortOrder, type LegalValueDraft } from '../../logic/definitions';
import { DefinitionFormModal } from './DefinitionFormModal';
import { LegalValuesEditor } from './LegalValuesEditor';
import { NameField } from './NameField';
import { useDefinitionForm } from './useDefinitionForm';

export interface ContextFieldValues {
  name: string;
  description?: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: ReadonlyArray<{ value: string; description?: string | null }>;
}

/** The form's values: the legal values as rows, each checked against the others. */
type FormValues = { name: string; description: string; stickiness: boolean; sortOrder: number | string; legalValues: LegalValueDraft[] };
export type ContextFieldFormState = UseFormReturnType<FormValues>;

/**
 * "New context field" or editing one: name (fixed once made), description, stickiness, sort order and the legal values
 * (the update replaces the whole list). Remount it (a `key`) to start from other values.
 */
export function ContextFieldForm({ editing, onClose }: { editing: ContextFieldValues | null; onClose(): void }) {
  const initialValues: FormValues = {
    name: editing?.name ?? '',
    description: editing?.description ?? '',
    stickiness: editing?.stickiness ?? false,
    sortOrder: editing?.sortOrder ?? 10,
    legalValues: (editing?.legalValues ?? []).map((v) => newLegalValue(v.value, v.description ?? '')),
  };
  const { form, modal } = useDefinitionForm({
    editing: editing?.name,
    initialValues,
    problems: (v) => rowErrors('legalValues', 'value', legalValueProblems(v.legalValues)),
    create: useCreateContextField(),
    update: useUpdateContextField(),
    toInput: (v) => ({
      description: v.description.trim() || null,
      stickiness: v.stickiness,
      sortOrder: toSortOrder(v.sortOrder),
      legalValues: toLegalValuesInput(v.legalValues),
    }),
    onClose,
  });

  return (
    <DefinitionFormModal noun="context field" size="lg" {...modal}>
      <NameField fixed={editing?.name} fixedNote="A context field cannot be renamed." description="As the SDKs send it in the context (properties included)."
        inputProps={form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <Group grow align="flex-start">
        <Switch label="Stickiness" description="Offer it as a rollout's stickiness." mt="sm" {...form.getInputProps('stickiness', { type: 'checkbox' })} />
        <NumberInput label="Sort order" description="Lower first in pickers." allowDecimal={false} min={-1_000_000} max={1_000_000}
          {...form.getInputProps('sortOrder')} />
      </Group>
      <LegalValuesEditor form={form} />
    </DefinitionFormModal>
  );
}
