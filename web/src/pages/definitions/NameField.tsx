import { TextInput } from '@mantine/core';

interface NameFieldProps {
  /** The name of the definition being edited (it cannot change); absent for a new one. */
  fixed?: string;
  /** Said under a fixed name. */
  fixedNote: string;
  /** Said under a new name: what it must be or where it shows. */
  description: string;
  /** The form's input props of the new name (`form.getInputProps('name')`). */
  inputProps: object;
}

/** A definition's name: typed (and checked) for a new one, shown read-only for one being edited. */
export function NameField({ fixed, fixedNote, description, inputProps }: NameFieldProps) {
  return fixed !== undefined
    ? <TextInput label="Name" value={fixed} readOnly description={fixedNote} />
    : <TextInput label="Name" required data-autofocus description={description} {...inputProps} />;
}
