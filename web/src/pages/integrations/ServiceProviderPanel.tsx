import { Anchor, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { CopyField } from '../../components/SecretField';

export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
  loginUrl: string;
  logoutCallbackUrl: string;
}

/** What the identity provider is set up with: this service's entity id, URLs and signing certificate. */
export function ServiceProviderPanel({ sp, certificate }: { sp: ServiceProvider; certificate: string | null | undefined }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="saml-sp">
      <Title order={2} size="h3" id="saml-sp">For your identity provider</Title>
      <Text size="sm" mb="sm">
        Register this service as a SAML 2.0 application (service provider) with these values, or give the identity provider
        the <Anchor href={sp.metadataUrl} target="_blank" rel="noreferrer">metadata</Anchor>, which holds them all. Assertions must
        be signed and carry the user's email address (an email attribute or an email NameID).
      </Text>
      <Stack gap="sm">
        <CopyField label="Metadata URL" copyName="Copy Metadata URL" value={sp.metadataUrl} description="SAML 2.0 metadata (XML), readable without signing in" />
        <CopyField label="Entity ID (audience)" copyName="Copy Entity ID (audience)" value={sp.entityId} />
        <CopyField label="Assertion consumer service URL" copyName="Copy Assertion consumer service URL" value={sp.acsUrl} description="Also called the reply, ACS or callback URL (HTTP-POST binding)" />
        <CopyField label="Single logout URL" copyName="Copy Single logout URL" value={sp.logoutCallbackUrl} description="Where the identity provider answers a sign-out (HTTP-Redirect binding)" />
        {certificate && (
          <Textarea label="This service's signing certificate" description="Its sign-in and sign-out requests are signed with the matching key, which never leaves the service."
            value={certificate} readOnly autosize minRows={3} maxRows={8} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} />
        )}
      </Stack>
    </Paper>
  );
}
