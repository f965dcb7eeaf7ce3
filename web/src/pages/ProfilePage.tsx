import { Alert, Button, Group, Loader, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../components/ErrorNotice';
import { useServerErrors } from '../components/form/FormModal';
import { useChangeOwnPassword, useRoles } from '../data/access';
import { useMe } from '../data/session';
import { roleName } from '../logic/access';
import { PersonalTokens } from './access/PersonalTokens';

/** `/profile`: the signed-in user's details, their password, and their personal access tokens. */
export default function ProfilePage() {
  const me = useMe();
  const roles = useRoles();
  const user = me.data?.me.user;
  return (
    <>
      <Title order={1} mb="md">Profile</Title>
      <ErrorNotice error={me.error} />
      {!user ? <Loader aria-label="Loading your profile" /> : (
        <>
          <Paper withBorder p="md" maw={640}>
            <SimpleGrid cols={2} spacing="xs" component="dl" style={{ margin: 0 }}>
              <Text component="dt" fw={600} size="sm">Name</Text><Text component="dd" size="sm" m={0}>{user.name || '—'}</Text>
              <Text component="dt" fw={600} size="sm">Username</Text><Text component="dd" size="sm" m={0}>{user.username || '—'}</Text>
              <Text component="dt" fw={600} size="sm">Email</Text><Text component="dd" size="sm" m={0}>{user.email || '—'}</Text>
              <Text component="dt" fw={600} size="sm">Root role</Text><Text component="dd" size="sm" m={0}>{roleName(roles.data?.roles, user.rootRole)}</Text>
            </SimpleGrid>
          </Paper>
          {user.isAPI ? (
            <Alert color="blue" mt="md" maw={640}>You are signed in with an API token: it has no password and no personal access tokens.</Alert>
          ) : (
            <>
              <ChangePassword />
              <PersonalTokens />
            </>
          )}
        </>
      )}
    </>
  );
}

/** The user's own new password, twice; the service checks its strength and ends the user's other sessions. */
function ChangePassword() {
  const change = useChangeOwnPassword();
  const form = useForm({ initialValues: { password: '', confirmPassword: '' } });
  const { password, confirmPassword } = form.values;
  useServerErrors(form, change.error);
  // What the service said (or that it was changed) is about the values sent, not those being typed.
  const typing = { onInput: () => change.reset() };
  return (
    <section aria-labelledby="password-title">
      <Title order={2} size="h3" mt="xl" mb="xs" id="password-title">Password</Title>
      <form noValidate onSubmit={form.onSubmit((v) => change.mutate(v, { onSuccess: () => form.reset() }))}>
        <Stack maw={420}>
          <PasswordInput label="New password" required autoComplete="new-password"
            description="At least 10 characters, with upper and lower case letters, a digit and a symbol." {...form.getInputProps('password')} {...typing} />
          <PasswordInput label="Confirm new password" required autoComplete="new-password" {...form.getInputProps('confirmPassword')} {...typing} />
          <ErrorNotice error={change.error} title="The password was not changed" />
          {change.isSuccess && <Alert color="green" role="status">Password changed. Your other sessions have been signed out.</Alert>}
          <Group><Button type="submit" loading={change.isPending} disabled={!password || !confirmPassword}>Change password</Button></Group>
        </Stack>
      </form>
    </section>
  );
}
