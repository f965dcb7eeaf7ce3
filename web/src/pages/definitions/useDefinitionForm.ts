import { useForm, type FormErrors } from '@mantine/form';
import { nameProblem } from '../../logic/definitions';

/** A data module's create or update hook, as the form uses it. */
interface Sender<I> {
  mutate(input: I, options: { onSuccess(): void }): void;
  isPending: boolean;
  error: unknown;
}

interface DefinitionFormOptions<V, I> {
  /** The name of the definition being edited (it cannot change); absent for a new one. */
  editing: string | undefined;
  initialValues: V;
  /** What a new name must be (default: URL-friendly, 1..100 characters). */
  nameRule?(name: string): string | null;
  /** The problems of the other fields (a list's rows, by their field's path). */
  problems?(values: V): FormErrors;
  create: Sender<I>;
  update: Sender<I>;
  /** The values as the change's input, but for the name. */
  toInput(values: V): NoInfer<Omit<I, 'name'>>;
  /** Closes the form (once the change is made, too). */
  onClose(): void;
}

/**
 * The form of a definition whose name is fixed once made (context fields, strategy types, tag types): checked as it is
 * typed, sent as a create for a new one or as an update of the one being edited. `modal` is DefinitionFormModal's props.
 */
export function useDefinitionForm<V extends { name: string } & Record<string, unknown>, I extends { name: string }>(o: DefinitionFormOptions<V, I>) {
  const form = useForm<V>({
    initialValues: o.initialValues,
    validate: (v) => ({ name: o.editing === undefined ? (o.nameRule ?? nameProblem)(v.name) : null, ...o.problems?.(v) }),
    validateInputOnChange: true,
  });
  const mutation = o.editing === undefined ? o.create : o.update;
  const onSubmit = (v: V) => mutation.mutate({ ...o.toInput(v), name: o.editing ?? v.name } as I, { onSuccess: o.onClose });
  return { form, modal: { editing: o.editing, form, mutation, onSubmit, onClose: o.onClose } };
}
