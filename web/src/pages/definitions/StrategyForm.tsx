import { TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useCreateStrategyType, useUpdateStrategyType } from '../../data/definitions';
import {
  PARAMETER_TYPES, newParameter, parameterProblems, rowErrors, toParametersInput, type ParameterDraft, type ParameterKind,
} from '../../logic/definitions';
import { DefinitionFormModal } from './DefinitionFormModal';
import { NameField } from './NameField';
import { ParametersEditor } from './ParametersEditor';
import { useDefinitionForm } from './useDefinitionForm';

export interface StrategyValues {
  name: string;
  displayName?: string | null;
  description?: string | null;
  parameters: ReadonlyArray<{ name: string; type: string; description: string; required: boolean }>;
}

/** The form's values: the declared parameters as rows, their names checked against each other. */
type FormValues = { name: string; displayName: string; description: string; parameters: ParameterDraft[] };
export type StrategyFormState = UseFormReturnType<FormValues>;

const asKind = (t: string): ParameterKind => ((PARAMETER_TYPES as readonly string[]).includes(t) ? (t as ParameterKind) : 'string');

/**
 * "New strategy type" or editing a custom one: name (fixed once made), display name, description and its declared
 * parameters (the update replaces them). Remount it (a `key`) to start from other values.
 */
export function StrategyForm({ editing, onClose }: { editing: StrategyValues | null; onClose(): void }) {
  const { form, modal } = useDefinitionForm({
    editing: editing?.name,
    initialValues: {
      name: editing?.name ?? '',
      displayName: editing?.displayName ?? '',
      description: editing?.description ?? '',
      parameters: (editing?.parameters ?? []).map((p) => newParameter({ ...p, type: asKind(p.type) })),
    },
    problems: (v) => rowErrors('parameters', 'name', parameterProblems(v.parameters)),
    create: useCreateStrategyType(),
    update: useUpdateStrategyType(),
    toInput: (v) => ({ displayName: v.displayName.trim() || null, description: v.description.trim() || null, parameters: toParametersInput(v.parameters) }),
    onClose,
  });

  return (
    <DefinitionFormModal noun="strategy type" size="lg" {...modal}>
      <NameField fixed={editing?.name} fixedNote="A strategy type cannot be renamed." description="What SDKs register the strategy's implementation under."
        inputProps={form.getInputProps('name')} />
      <TextInput label="Display name" maxLength={100} {...form.getInputProps('displayName')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <ParametersEditor form={form} />
    </DefinitionFormModal>
  );
}
