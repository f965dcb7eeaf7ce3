import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useSamlSettings } from '../../data/integrations';
import { useAllowed } from '../../data/session';
import { SamlForm } from '../integrations/SamlForm';
import { ServiceProviderPanel } from '../integrations/ServiceProviderPanel';

/**
 * `/admin/auth`: SAML 2.0 single sign-on, for admins: what to give the identity provider (this service's entity id and
 * URLs), the identity provider's settings, and a test sign-in.
 */
export default function AuthPage() {
  const { can, loading } = useAllowed();
  const admin = can('ADMIN');
  const saml = useSamlSettings(admin);
  const s = saml.data?.samlSettings;

  return (
    <>
      <Title order={1} mb="xs">Single sign-on</Title>
      <Text size="sm" c="dimmed" mb="md">Let people sign in with your identity provider (SAML 2.0), next to or instead of passwords.</Text>
      {loading && <Loader aria-label="Loading" />}
      {!loading && !admin && <Alert color="yellow" title="Admins only">Only an admin may see and change how people sign in.</Alert>}
      <ErrorNotice error={saml.error} />
      {admin && saml.isPending && <Loader aria-label="Loading SAML settings" />}
      {s && (
        <Stack gap="lg">
          <ServiceProviderPanel sp={s.serviceProvider} certificate={s.spCertificate} />
          {/* Keyed by when the settings were read: after a save the form starts again from what the service stored. */}
          <SamlForm key={saml.dataUpdatedAt} loginUrl={s.serviceProvider.loginUrl} initial={{
            enabled: s.enabled, entityId: s.entityId ?? '', signOnUrl: s.signOnUrl ?? '', certificate: s.certificate ?? '', signOutUrl: s.signOutUrl ?? '',
            autoCreate: s.autoCreate, emailDomains: s.emailDomains ?? '', defaultRootRole: s.defaultRootRole,
          }} />
        </Stack>
      )}
    </>
  );
}
