import { Alert, Anchor, Button, Group, Paper, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { useUpdateSaml } from '../../data/integrations';
import { href } from '../../routing/links';

export interface SamlValues {
  enabled: boolean;
  entityId: string;
  signOnUrl: string;
  certificate: string;
  signOutUrl: string;
  autoCreate: boolean;
  emailDomains: string;
  defaultRootRole: string;
}

const ROLES = ['Viewer', 'Editor', 'Admin'];

/**
 * The identity provider's settings (updateSamlSettings replaces them all): entity id, sign-on URL and certificate are
 * required; sign-out, automatic user creation and its domains and role are optional. The sign-in link to test with.
 * The service's refusals name the fields they are about and show under them.
 */
export function SamlForm({ initial, loginUrl }: { initial: SamlValues; loginUrl: string }) {
  const save = useUpdateSaml();
  const form = useForm({ initialValues: { ...initial } });
  useServerErrors(form, save.error);
  // Empty optional fields mean absent to the service; the service's own certificate is left out (it cannot change).
  const submit = (v: SamlValues) => save.mutate({
    enabled: v.enabled, entityId: v.entityId.trim(), signOnUrl: v.signOnUrl.trim(), certificate: v.certificate.trim(),
    signOutUrl: v.signOutUrl.trim(), autoCreate: v.autoCreate, emailDomains: v.emailDomains.trim(), defaultRootRole: v.defaultRootRole,
  });
  // A test sign-in comes back to this page (the RelayState), where the admin started it.
  const testUrl = `${loginUrl}?redirect=${encodeURIComponent(href('auth'))}`;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="saml-idp">
      <Title order={2} size="h3" id="saml-idp" mb="sm">Identity provider</Title>
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack>
          <Switch label="Enable SAML sign-in" description="The login page then offers it next to the password."
            {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <TextInput label="Identity provider entity ID" required description="The Issuer of its responses" {...form.getInputProps('entityId')} />
          <TextInput label="Single sign-on URL" required description="Where sign-in requests are sent (HTTP-Redirect binding)" type="url"
            {...form.getInputProps('signOnUrl')} />
          <Textarea label="X.509 certificate" required description="The identity provider's signing certificate, PEM (the BEGIN/END lines may be left out)"
            autosize minRows={4} maxRows={12} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            {...form.getInputProps('certificate')} />
          <TextInput label="Single logout URL" description="Optional: sign-out then also ends the identity provider's session" type="url"
            {...form.getInputProps('signOutUrl')} />
          <Switch label="Create users at their first sign-in" description="Only for email addresses in the domains below"
            {...form.getInputProps('autoCreate', { type: 'checkbox' })} />
          <TextInput label="Email domains" description='Comma-separated, for example "example.com,example.org"' required={form.values.autoCreate}
            {...form.getInputProps('emailDomains')} />
          <Select label="Root role of created users" data={ROLES} allowDeselect={false} {...form.getInputProps('defaultRootRole')} />
          <ErrorNotice error={save.error} />
          <Group justify="space-between">
            <Text size="sm">
              {initial.enabled
                ? <Anchor href={testUrl} target="_blank" rel="noreferrer">Test sign-in</Anchor>
                : 'Test sign-in works once sign-in is enabled and saved.'}
            </Text>
            <Button type="submit" loading={save.isPending}>Save settings</Button>
          </Group>
          {initial.enabled && (
            <Alert color="blue" variant="light">
              The test opens the identity provider in a new tab and, once it vouches for you, signs that tab in here as the
              user with your email address. Keep this tab open in case the settings need fixing.
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
