import { Anchor, Button, Container, Divider, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeNext, signIn, signInConfig } from '../api/session';
import { ErrorNotice } from '../components/ErrorNotice';

/** The SSO address on this origin: the page is served by the service itself, whatever PUBLIC_URL names. */
const samePath = (url: string) => {
  const u = new URL(url, window.location.origin);
  return `${u.pathname}${u.search}`;
};

/** `/login`: username or e-mail and password (POST /auth/simple/login), and "Sign in with SSO" when SAML is on. */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const config = useQuery({ queryKey: ['sign-in-config'], queryFn: signInConfig, retry: false });
  const login = useMutation({
    mutationFn: () => signIn(username, password),
    onSuccess: () => {
      queryClient.clear();
      navigate(safeNext(params.get('next')), { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate();
  };
  const saml = config.data?.saml;

  return (
    <Container component="main" size={420} py={80}>
      <Title order={1} ta="center" mb="lg">Sign in to flagdeck</Title>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={submit} aria-label="Sign in">
          <Stack>
            <TextInput label="Username or email" autoComplete="username" required value={username} onChange={(e) => setUsername(e.currentTarget.value)} data-autofocus autoFocus />
            <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <ErrorNotice error={login.error} title="Sign-in failed" />
            <Button type="submit" loading={login.isPending}>Sign in</Button>
          </Stack>
        </form>
        {saml?.enabled && saml.loginUrl && (
          <>
            <Divider label="or" labelPosition="center" my="md" />
            <Button component="a" href={samePath(saml.loginUrl)} variant="default" fullWidth>Sign in with SSO</Button>
          </>
        )}
      </Paper>
      <Anchor href="/graphql" size="sm" display="block" ta="center" mt="md">GraphiQL (with an API token)</Anchor>
    </Container>
  );
}
