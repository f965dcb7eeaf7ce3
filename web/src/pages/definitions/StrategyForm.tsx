import { TextInput, Textarea } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';
import { useCreateStrategyType, useUpdateStrategyType } from '../../data/definitions';
import {
  PARAMETER_TYPES, nameProblem, newParameter, parameterProblems, rowErrors, toParametersInput, type ParameterDraft, type ParameterKind,
} from '../../logic/definitions';
import { NameField } from './NameField';
import { ParametersEditor } from './ParametersEditor';

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
  const create = useCreateStrategyType();
  const update = useUpdateStrategyType();
  const save = editing ? update : create;
  const form = useForm<FormValues>({
    initialValues: {
      name: editing?.name ?? '',
      displayName: editing?.displayName ?? '',
      description: editing?.description ?? '',
      parameters: (editing?.parameters ?? []).map((p) => newParameter({ ...p, type: asKind(p.type) })),
    },
    validate: (v) => ({ name: editing ? null : nameProblem(v.name), ...rowErrors('parameters', 'name', parameterProblems(v.parameters)) }),
    validateInputOnChange: true,
  });

  return (
    <FormModal
      title={editing ? `Edit ${editing.name}` : 'New strategy type'}
      size="lg"
      form={form}
      mutation={save}
      submitLabel={editing ? 'Save' : 'Create strategy type'}
      onClose={onClose}
      onSubmit={(v) => save.mutate({
        name: editing?.name ?? v.name,
        displayName: v.displayName.trim() || null,
        description: v.description.trim() || null,
        parameters: toParametersInput(v.parameters),
      }, { onSuccess: onClose })}
    >
      <NameField fixed={editing?.name} fixedNote="A strategy type cannot be renamed." description="What SDKs register the strategy's implementation under."
        inputProps={form.getInputProps('name')} />
      <TextInput label="Display name" maxLength={100} {...form.getInputProps('displayName')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <ParametersEditor form={form} />
    </FormModal>
  );
}
