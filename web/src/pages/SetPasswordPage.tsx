import { Alert, Loader, PasswordInput, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMatch, useNavigate, useSearchParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { useResetToken, useSetPassword } from '../data/session';
import { href } from '../routing/links';
import { ROUTES } from '../routing/table';
import { GoSignIn, PublicForm, PublicFrame } from './access/PublicFrame';
import { InviteSignup } from './InviteSignupPage';

/**
 * `/new-user?token=` (an admin's invitation) and `/reset-password?token=` (a reset link): the link's token is checked
 * (GET /auth/reset/validate), then sets the password (POST /auth/reset/password). `/new-user?invite=` is an invite
 * link's signup form.
 */
export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const invite = params.get('invite');
  if (invite) return <InviteSignup secret={invite} />;
  return <SetPassword token={params.get('token') ?? ''} />;
}

function SetPassword({ token }: { token: string }) {
  const isNewUser = useMatch(ROUTES.newUser.path) !== null;
  const holder = useResetToken(token);
  const navigate = useNavigate();
  // Once the password is set, the holder is signed in with it (by email, the login the link's answer names); a user
  // with only a username, or a sign-in the service refuses, is left to the login page.
  const save = useSetPassword(token);
  const form = useForm({ initialValues: { password: '' } });
  const submit = ({ password }: typeof form.values) =>
    save.mutate({ password, email: holder.data?.email }, { onSuccess: (signedIn) => { if (signedIn) navigate(href('projects'), { replace: true }); } });

  return (
    <PublicFrame title={isNewUser ? 'Welcome to flagdeck' : 'Reset your password'}>
      {token === '' ? (
        <Alert color="red" title="No token">This address has no token: open the link you were given as it is.</Alert>
      ) : holder.isPending ? (
        <Loader aria-label="Checking the link" />
      ) : holder.isError ? (
        <>
          <ErrorNotice error={holder.error} title="This link cannot be used" />
          <Text size="sm">Links are valid for 24 hours and once only. Ask an admin for a new one.</Text>
        </>
      ) : save.isSuccess && !save.data ? (
        <GoSignIn title="Password set">You can now sign in with it.</GoSignIn>
      ) : (
        <PublicForm form={form} mutation={save} submitLabel="Set password" errorTitle="The password was not set" onSubmit={submit}>
          <Text size="sm">
            {isNewUser ? 'Choose a password for ' : 'Choose a new password for '}
            <strong>{holder.data.email || holder.data.name}</strong>.
          </Text>
          <PasswordInput label="Password" autoComplete="new-password" required
            description="At least 10 characters, with upper and lower case letters, a digit and a symbol." {...form.getInputProps('password')} />
        </PublicForm>
      )}
    </PublicFrame>
  );
}
