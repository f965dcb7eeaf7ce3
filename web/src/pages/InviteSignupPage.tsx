import { Alert, Anchor, Button, Container, Loader, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { signIn, signUpWithInvite, validateInvite } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { href } from '../routing/links';

/** `/invite/:secret`: the public signup page of an invite link. */
export default function InviteSignupPage() {
  return <InviteSignup secret={useParams().secret ?? ''} />;
}

/** Checks the invite (GET /invite/:secret/validate), then signs up with it (POST /invite/:secret/signup). */
export function InviteSignup({ secret }: { secret: string }) {
  const [form, setForm] = useState({ name: '', email: '', username: '', password: '' });
  const valid = useQuery({ queryKey: ['invite', secret], queryFn: () => validateInvite(secret), retry: false });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A new account is signed in with what was just typed; if the service refuses that, the login page is offered.
  const signup = useMutation({
    mutationFn: async () => {
      await signUpWithInvite(secret, { name: form.name, email: form.email, password: form.password, ...(form.username ? { username: form.username } : {}) });
      return signIn(form.email, form.password).then(() => true, () => false);
    },
    onSuccess: (signedIn) => {
      if (!signedIn) return;
      // Whatever an earlier session cached goes; the link's own query stays (cleared, it would be asked again and a
      // used link answers 401, which sends the app to the login page).
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'invite' });
      navigate(href('projects'), { replace: true });
    },
  });
  const field = (key: keyof typeof form) => ({ value: form[key], onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.currentTarget.value }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signup.mutate();
  };

  return (
    <Container component="main" size={460} py={80}>
      <Title order={1} ta="center" mb="lg">Join flagdeck</Title>
      <Paper withBorder p="lg" radius="md">
        {valid.isPending ? (
          <Loader aria-label="Checking the invite link" />
        ) : valid.isError ? (
          <ErrorNotice error={valid.error} title="This invite link cannot be used" />
        ) : signup.isSuccess && !signup.data ? (
          <Stack>
            <Alert color="green" title="Account created">You can now sign in.</Alert>
            <Button component={Link} to={href('login')}>Go to sign in</Button>
          </Stack>
        ) : (
          <form onSubmit={submit} aria-label="Sign up">
            <Stack>
              <TextInput label="Name" required autoComplete="name" {...field('name')} />
              <TextInput label="Email" type="email" required autoComplete="email" {...field('email')} />
              <TextInput label="Username" description="Optional" autoComplete="username" {...field('username')} />
              <PasswordInput label="Password" required autoComplete="new-password" {...field('password')} />
              <ErrorNotice error={signup.error} title="Signing up failed" />
              <Button type="submit" loading={signup.isPending}>Sign up</Button>
            </Stack>
          </form>
        )}
      </Paper>
      <Anchor component={Link} to={href('login')} size="sm" display="block" ta="center" mt="md">Back to sign in</Anchor>
    </Container>
  );
}
