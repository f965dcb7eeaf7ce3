import { Anchor, Button, Divider, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useSearchParams } from 'react-router';
import { useSignIn, useSignInConfig } from '../data/session';
import { safeNextPath } from '../logic/safe-next';
import { href } from '../routing/links';
import { PublicForm, PublicFrame } from './access/PublicFrame';

/** The SSO address on this origin: the page is served by the service itself, whatever PUBLIC_URL names. */
const samePath = (url: string) => {
  const u = new URL(url, window.location.origin);
  return `${u.pathname}${u.search}`;
};

/** Where to go after signing in: only a path of this app (never another origin, nor the login page), else home. */
const safeNext = (next: string | null) => safeNextPath(next, href('home'), href('login'));

/** `/login`: username or e-mail and password (POST /auth/simple/login), and "Sign in with SSO" when SAML is on. */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const config = useSignInConfig();
  const login = useSignIn();
  const form = useForm({ initialValues: { username: '', password: '' } });
  const saml = config.data?.saml;

  return (
    <PublicFrame title="Sign in to flagdeck" size={420}
      footer={<Anchor href="/graphql" size="sm" display="block" ta="center" mt="md">GraphiQL (with an API token)</Anchor>}>
      <PublicForm form={form} mutation={login} submitLabel="Sign in" errorTitle="Sign-in failed" label="Sign in"
        onSubmit={(v) => login.mutate(v, { onSuccess: () => navigate(safeNext(params.get('next')), { replace: true }) })}>
        <TextInput label="Username or email" autoComplete="username" required data-autofocus autoFocus {...form.getInputProps('username')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
      </PublicForm>
      {saml?.enabled && saml.loginUrl && (
        <>
          <Divider label="or" labelPosition="center" my="md" />
          <Button component="a" href={samePath(saml.loginUrl)} variant="default" fullWidth>Sign in with SSO</Button>
        </>
      )}
    </PublicFrame>
  );
}
