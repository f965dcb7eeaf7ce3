import type { ModalProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { FormModal } from '../../components/form/FormModal';

interface DefinitionFormModalProps<V extends Record<string, unknown>> {
  /** What one definition is called ("context field"): "New context field", sent with "Create context field". */
  noun: string;
  /** The name of the definition being edited ("Edit <name>", sent with "Save"); absent for a new one. */
  editing?: string;
  /** The edit dialog's title, where it names the kind too. */
  editTitle?: string;
  form: UseFormReturnType<V>;
  mutation: { isPending: boolean; error: unknown };
  onSubmit(values: V): void;
  onClose(): void;
  size?: ModalProps['size'];
  children: React.ReactNode;
}

/** A definition's form in a dialog (FormModal), titled and labelled the same way for every kind of definition. */
export function DefinitionFormModal<V extends Record<string, unknown>>({ noun, editing, editTitle, ...rest }: DefinitionFormModalProps<V>) {
  return (
    <FormModal
      title={editing === undefined ? `New ${noun}` : editTitle ?? `Edit ${editing}`}
      submitLabel={editing === undefined ? `Create ${noun}` : 'Save'}
      {...rest}
    />
  );
}
