import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { graphql } from '../../gql';
import { SamlForm } from '../integrations/SamlForm';
import { ServiceProviderPanel } from '../integrations/ServiceProviderPanel';

const SamlQuery = graphql(`
  query AuthSamlSettings {
    samlSettings {
      enabled entityId signOnUrl certificate signOutUrl spCertificate autoCreate emailDomains defaultRootRole
      serviceProvider { entityId acsUrl metadataUrl loginUrl logoutCallbackUrl }
    }
  }
`);

/**
 * `/admin/auth`: SAML 2.0 single sign-on, for admins: what to give the identity provider (this service's entity id and
 * URLs), the identity provider's settings, and a test sign-in.
 */
export default function AuthPage() {
  const { can, loading } = useAllowed();
  const admin = can('ADMIN');
  // Read once (not again on focus): the form starts from this answer, and typing must not be reset under the admin.
  const saml = useQuery({ queryKey: ['saml-settings'], queryFn: () => gql(SamlQuery), enabled: admin, staleTime: Infinity, refetchOnWindowFocus: false });
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
