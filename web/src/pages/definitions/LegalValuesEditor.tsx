import { Group, TextInput } from '@mantine/core';
import { EditableList, RemoveButton } from '../../components/constraints/EditableList';
import { newLegalValue } from '../../logic/definitions';
import type { ContextFieldFormState } from './ContextFieldForm';

/** A context field's legal values: each a value and what it means, added and removed row by row. */
export function LegalValuesEditor({ form }: { form: ContextFieldFormState }) {
  const values = form.getValues().legalValues;
  return (
    <EditableList
      title="Legal values"
      summary={values.length === 0 ? 'None: constraints on this field take any value.' : 'Constraints on this field offer only these values.'}
      addLabel="Add legal value"
      onAdd={() => form.insertListItem('legalValues', newLegalValue())}
    >
      {values.map((v, i) => (
        <Group key={v.key} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput label={`Value ${i + 1}`} w={180} {...form.getInputProps(`legalValues.${i}.value`)} />
          <TextInput label={`Description of value ${i + 1}`} style={{ flex: 1 }} {...form.getInputProps(`legalValues.${i}.description`)} />
          <RemoveButton label={`Remove value ${i + 1}`} onClick={() => form.removeListItem('legalValues', i)} />
        </Group>
      ))}
    </EditableList>
  );
}
