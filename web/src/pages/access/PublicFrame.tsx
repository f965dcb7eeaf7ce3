import { Alert, Anchor, Button, Container, Paper, Stack, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { href } from '../../routing/links';

/** The frame of the pages for people not signed in (signing in, the links the service hands out): a title, a card, a way back. */
export function PublicFrame({ title, size = 460, footer, children }: { title: string; size?: number; footer?: React.ReactNode; children: React.ReactNode }) {
  return (
    <Container component="main" size={size} py={80}>
      <Title order={1} ta="center" mb="lg">{title}</Title>
      <Paper withBorder p="lg" radius="md">{children}</Paper>
      {footer ?? <Anchor component={Link} to={href('login')} size="sm" display="block" ta="center" mt="md">Back to sign in</Anchor>}
    </Container>
  );
}

interface PublicFormProps<V extends Record<string, unknown>> {
  form: UseFormReturnType<V>;
  mutation: { isPending: boolean; error: unknown };
  onSubmit(values: V): void;
  submitLabel: string;
  /** What the refusal's notice is headed with ("Sign-in failed"). */
  errorTitle: string;
  /** The form's accessible name, where the page names it. */
  label?: string;
  children: React.ReactNode;
}

/** A form of those pages: its fields, the service's refusal (also on the fields it names), and the one button. */
export function PublicForm<V extends Record<string, unknown>>({ form, mutation, onSubmit, submitLabel, errorTitle, label, children }: PublicFormProps<V>) {
  useServerErrors(form, mutation.error);
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values))} {...(label ? { 'aria-label': label } : {})}>
      <Stack>
        {children}
        <ErrorNotice error={mutation.error} title={errorTitle} />
        <Button type="submit" loading={mutation.isPending}>{submitLabel}</Button>
      </Stack>
    </form>
  );
}

/** Done, but not signed in (the service refused the sign-in that follows): the way to the login page. */
export function GoSignIn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack>
      <Alert color="green" title={title}>{children}</Alert>
      <Button component={Link} to={href('login')}>Go to sign in</Button>
    </Stack>
  );
}
