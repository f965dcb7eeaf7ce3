import { Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useEffect } from 'react';
import { serverFieldErrors } from '../../logic/form-errors';
import { ErrorNotice } from '../ErrorNotice';

interface FormModalProps<V extends Record<string, unknown>> {
  title: string;
  /** The form (`useForm` of @mantine/form): its values, its validation before sending, its field errors. */
  form: UseFormReturnType<V>;
  /** The change it sends (a data module's mutation hook): its pending state and its refusal are shown here. */
  mutation: { isPending: boolean; error: unknown };
  /** Called with the values once they pass the form's validation. */
  onSubmit(values: V): void;
  onClose(): void;
  submitLabel: string;
  /** The refusal's heading ("The user was not created"); by default the error's name. */
  errorTitle?: string;
  size?: ModalProps['size'];
  /** More buttons, left of Cancel. */
  extraButtons?: React.ReactNode;
  children: React.ReactNode;
}

/**
 * A form in a dialog, the one way the UI asks for a change: the fields, the service's refusal in its own words (its
 * details also shown on the fields they name), Cancel and the submit button, which shows the change is on its way.
 */
export function FormModal<V extends Record<string, unknown>>({ title, form, mutation, onSubmit, onClose, submitLabel, errorTitle, size, extraButtons, children }: FormModalProps<V>) {
  useServerErrors(form, mutation.error);
  return (
    <Modal opened onClose={onClose} title={title} centered {...(size ? { size } : {})}>
      <form noValidate onSubmit={form.onSubmit((values) => onSubmit(values))}>
        <Stack>
          {children}
          <ErrorNotice error={mutation.error} {...(errorTitle ? { title: errorTitle } : {})} />
          <Group justify="flex-end">
            {extraButtons}
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={mutation.isPending}>{submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The refusal's details that name a field of the form, set as that field's error (cleared when the field changes). */
export function useServerErrors<V extends Record<string, unknown>>(form: UseFormReturnType<V>, error: unknown) {
  useEffect(() => {
    const errors = serverFieldErrors(error, Object.keys(form.getValues()));
    if (Object.keys(errors).length > 0) form.setErrors(errors);
  }, [error]); // eslint-disable-line react-hooks/exhaustive-deps
}
