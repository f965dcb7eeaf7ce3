import { Alert, Anchor, Button, Group, Paper, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { notifyDone } from '../../components/notify';
import { href } from '../../routing/links';

const UpdateSamlMutation = graphql(`
  mutation AuthSamlUpdate($input: UpdateSamlSettingsInput!) {
    updateSamlSettings(input: $input) { enabled }
  }
`);

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

/** The service's complaint about one field (ValidationError details name it by path), to show under that field. */
function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  return error.details.find((d) => d.path === field)?.message;
}

/**
 * The identity provider's settings (updateSamlSettings replaces them all): entity id, sign-on URL and certificate are
 * required; sign-out, automatic user creation and its domains and role are optional. The sign-in link to test with.
 */
export function SamlForm({ initial, loginUrl }: { initial: SamlValues; loginUrl: string }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SamlValues>(initial);
  const set = (patch: Partial<SamlValues>) => setValues((v) => ({ ...v, ...patch }));
  const save = useMutation({
    // Empty optional fields mean absent to the service; the service's own certificate is left out (it cannot change).
    mutationFn: () => gql(UpdateSamlMutation, { input: {
      enabled: values.enabled, entityId: values.entityId.trim(), signOnUrl: values.signOnUrl.trim(), certificate: values.certificate.trim(),
      signOutUrl: values.signOutUrl.trim(), autoCreate: values.autoCreate, emailDomains: values.emailDomains.trim(), defaultRootRole: values.defaultRootRole,
    } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['saml-settings'] });
      await queryClient.invalidateQueries({ queryKey: ['sign-in-config'] });
      notifyDone('SAML settings saved.');
    },
  });
  const err = (field: string) => fieldError(save.error, field);
  // A test sign-in comes back to this page (the RelayState), where the admin started it.
  const testUrl = `${loginUrl}?redirect=${encodeURIComponent(href('auth'))}`;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="saml-idp">
      <Title order={2} size="h3" id="saml-idp" mb="sm">Identity provider</Title>
      <form noValidate onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        <Stack>
          <Switch label="Enable SAML sign-in" description="The login page then offers it next to the password."
            checked={values.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          <TextInput label="Identity provider entity ID" required description="The Issuer of its responses" value={values.entityId}
            error={err('entityId')} onChange={(e) => set({ entityId: e.currentTarget.value })} />
          <TextInput label="Single sign-on URL" required description="Where sign-in requests are sent (HTTP-Redirect binding)" type="url"
            value={values.signOnUrl} error={err('signOnUrl')} onChange={(e) => set({ signOnUrl: e.currentTarget.value })} />
          <Textarea label="X.509 certificate" required description="The identity provider's signing certificate, PEM (the BEGIN/END lines may be left out)"
            value={values.certificate} error={err('certificate')} autosize minRows={4} maxRows={12}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            onChange={(e) => set({ certificate: e.currentTarget.value })} />
          <TextInput label="Single logout URL" description="Optional: sign-out then also ends the identity provider's session" type="url"
            value={values.signOutUrl} error={err('signOutUrl')} onChange={(e) => set({ signOutUrl: e.currentTarget.value })} />
          <Switch label="Create users at their first sign-in" description="Only for email addresses in the domains below"
            checked={values.autoCreate} onChange={(e) => set({ autoCreate: e.currentTarget.checked })} />
          <TextInput label="Email domains" description='Comma-separated, for example "example.com,example.org"' value={values.emailDomains}
            required={values.autoCreate} error={err('emailDomains')} onChange={(e) => set({ emailDomains: e.currentTarget.value })} />
          <Select label="Root role of created users" data={ROLES} value={values.defaultRootRole} allowDeselect={false}
            error={err('defaultRootRole')} onChange={(v) => set({ defaultRootRole: v ?? 'Viewer' })} />
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
