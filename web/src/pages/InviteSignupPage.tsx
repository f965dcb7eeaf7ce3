import { Loader, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { useInvite, useSignUpWithInvite } from '../data/session';
import { href } from '../routing/links';
import { GoSignIn, PublicForm, PublicFrame } from './access/PublicFrame';

/** `/invite/:secret`: the public signup page of an invite link. */
export default function InviteSignupPage() {
  return <InviteSignup secret={useParams().secret ?? ''} />;
}

/** Checks the invite (GET /invite/:secret/validate), then signs up with it (POST /invite/:secret/signup). */
export function InviteSignup({ secret }: { secret: string }) {
  const valid = useInvite(secret);
  const navigate = useNavigate();
  // A new account is signed in with what was just typed; if the service refuses that, the login page is offered.
  const signup = useSignUpWithInvite(secret);
  const form = useForm({ initialValues: { name: '', email: '', username: '', password: '' } });

  return (
    <PublicFrame title="Join flagdeck">
      {valid.isPending ? (
        <Loader aria-label="Checking the invite link" />
      ) : valid.isError ? (
        <ErrorNotice error={valid.error} title="This invite link cannot be used" />
      ) : signup.isSuccess && !signup.data ? (
        <GoSignIn title="Account created">You can now sign in.</GoSignIn>
      ) : (
        <PublicForm form={form} mutation={signup} submitLabel="Sign up" errorTitle="Signing up failed" label="Sign up"
          onSubmit={(v) => signup.mutate(v, { onSuccess: (signedIn) => { if (signedIn) navigate(href('projects'), { replace: true }); } })}>
          <TextInput label="Name" required autoComplete="name" {...form.getInputProps('name')} />
          <TextInput label="Email" type="email" required autoComplete="email" {...form.getInputProps('email')} />
          <TextInput label="Username" description="Optional" autoComplete="username" {...form.getInputProps('username')} />
          <PasswordInput label="Password" required autoComplete="new-password" {...form.getInputProps('password')} />
        </PublicForm>
      )}
    </PublicFrame>
  );
}
