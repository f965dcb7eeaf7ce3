import { Alert, Anchor, Button, Container, Loader, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useMatch, useNavigate, useSearchParams } from 'react-router';
import { rest } from '../api/client';
import { signIn } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { InviteSignup } from './InviteSignupPage';
import { href } from '../routing/links';
import { ROUTES } from '../routing/table';

interface TokenUser {
  id: number;
  name: string | null;
  email: string;
}

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
  const [password, setPassword] = useState('');
  const holder = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => rest<TokenUser>('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`),
    retry: false,
    enabled: token !== '',
  });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Once the password is set, the holder is signed in with it (by email, the login the link's answer names); a user
  // with only a username, or a sign-in the service refuses, is left to the login page.
  const save = useMutation({
    mutationFn: async () => {
      await rest('POST', '/auth/reset/password', { token, password });
      const email = holder.data?.email;
      if (!email) return false;
      return signIn(email, password).then(() => true, () => false);
    },
    onSuccess: (signedIn) => {
      if (!signedIn) return;
      // Whatever an earlier session cached goes; the link's own query stays (cleared, it would be asked again and a
      // used link answers 401, which sends the app to the login page).
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'reset-token' });
      navigate(href('projects'), { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = isNewUser ? 'Welcome to flagdeck' : 'Reset your password';

  return (
    <Container component="main" size={460} py={80}>
      <Title order={1} ta="center" mb="lg">{title}</Title>
      <Paper withBorder p="lg" radius="md">
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
          <Stack>
            <Alert color="green" title="Password set">You can now sign in with it.</Alert>
            <Button component={Link} to={href('login')}>Go to sign in</Button>
          </Stack>
        ) : (
          <form onSubmit={submit}>
            <Stack>
              <Text size="sm">
                {isNewUser ? 'Choose a password for ' : 'Choose a new password for '}
                <strong>{holder.data.email || holder.data.name}</strong>.
              </Text>
              <PasswordInput label="Password" autoComplete="new-password" required value={password}
                description="At least 10 characters, with upper and lower case letters, a digit and a symbol."
                onChange={(e) => setPassword(e.currentTarget.value)} />
              <ErrorNotice error={save.error} title="The password was not set" />
              <Button type="submit" loading={save.isPending}>Set password</Button>
            </Stack>
          </form>
        )}
      </Paper>
      <Anchor component={Link} to={href('login')} size="sm" display="block" ta="center" mt="md">Back to sign in</Anchor>
    </Container>
  );
}
