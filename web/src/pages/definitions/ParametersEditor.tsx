import { Checkbox, Fieldset, Group, Select, Stack, TextInput } from '@mantine/core';
import { EditableList, RemoveButton } from '../../components/constraints/EditableList';
import { PARAMETER_TYPES, newParameter, type ParameterKind } from '../../logic/definitions';
import type { StrategyFormState } from './StrategyForm';

const TYPE_LABELS: Record<ParameterKind, string> = {
  string: 'Text', percentage: 'Percentage (0–100)', list: 'List (comma-separated)', number: 'Number', boolean: 'Boolean',
};
const TYPE_DATA = PARAMETER_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));

/** The parameters a custom strategy type declares: name, kind of value, what it does, and whether it must be set. */
export function ParametersEditor({ form }: { form: StrategyFormState }) {
  const params = form.getValues().parameters;
  const at = (i: number, field: string) => `parameters.${i}.${field}`;
  return (
    <EditableList
      title="Parameters"
      summary={params.length === 0 ? 'None: flags set nothing for this strategy.' : 'What each flag using the strategy sets.'}
      addLabel="Add parameter"
      onAdd={() => form.insertListItem('parameters', newParameter())}
    >
      {params.map((p, i) => (
        <Fieldset key={p.key} legend={`Parameter ${i + 1}`} p="sm">
          <Stack gap="xs">
            <Group align="flex-start" gap="sm" wrap="nowrap">
              <TextInput label="Parameter name" style={{ flex: 1 }} {...form.getInputProps(at(i, 'name'))} />
              <Select label="Parameter type" data={TYPE_DATA} allowDeselect={false} w={220} {...form.getInputProps(at(i, 'type'))} />
              <RemoveButton label={`Remove parameter ${i + 1}`} onClick={() => form.removeListItem('parameters', i)} />
            </Group>
            <TextInput label="Parameter description" {...form.getInputProps(at(i, 'description'))} />
            <Checkbox label="Required" description="A flag's strategy must set it." {...form.getInputProps(at(i, 'required'), { type: 'checkbox' })} />
          </Stack>
        </Fieldset>
      ))}
    </EditableList>
  );
}
