import { Button, CopyButton, Group, Loader, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useRoles, useSetSignupLinkEnabled, useSignupLinks, type SignupLink } from '../../data/access';
import { useAllowed } from '../../data/session';
import { hasPassed, personLabel, shortDate } from '../../logic/access';
import { NewSignupLinkModal } from '../access/NewSignupLinkModal';

/** `/admin/signup-links`: public signup links with their role, expiry and who signed up; create, enable, disable (ADMIN). */
export default function SignupLinksPage() {
  const admin = useAllowed().can('ADMIN');
  const links = useSignupLinks(admin);
  const roles = useRoles();
  const [creating, setCreating] = useState(false);

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>Signup links</Title>
        <Can permission="ADMIN"><Button onClick={() => setCreating(true)}>New signup link</Button></Can>
      </Group>
      <Text size="sm" c="dimmed" mb="md">Whoever opens a signup link may create an account with the link's root role, until it expires or is disabled.</Text>
      <ErrorNotice error={links.error} />
      {admin && links.isPending && <Loader aria-label="Loading signup links" />}
      {links.data && links.data.publicSignupTokens.length === 0 && <Text c="dimmed">No signup links yet.</Text>}
      <Stack>
        {links.data?.publicSignupTokens.map((link) => <SignupLinkCard key={link.secret} link={link} />)}
      </Stack>
      {creating && <NewSignupLinkModal onClose={() => setCreating(false)} roles={roles.data?.roles ?? []} />}
    </>
  );
}

/** One link: its URL to copy, its switch (refusals shown right under it), expiry and the users who signed up with it. */
function SignupLinkCard({ link }: { link: SignupLink }) {
  const toggle = useSetSignupLinkEnabled(link.secret);
  const expired = hasPassed(link.expiresAt);
  return (
    <Paper withBorder p="md" component="section" aria-label={`Signup link ${link.name}`}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h4">{link.name}</Title>
          <Text size="sm" c="dimmed">
            Role {link.role.name} · {expired ? 'expired' : 'expires'} {shortDate(link.expiresAt)} · created {shortDate(link.createdAt)}{link.createdBy ? ` by ${link.createdBy}` : ''}
          </Text>
        </div>
        <Switch label="Enabled" aria-label={`${link.name} enabled`} checked={link.enabled} disabled={expired || toggle.isPending}
          onChange={(e) => toggle.mutate(e.currentTarget.checked)} />
      </Group>
      <ErrorNotice error={toggle.error} title="The link was not changed" />
      <Group align="flex-end" gap="xs" mt="sm" wrap="nowrap">
        <TextInput label="Link" value={link.url} readOnly style={{ flex: 1 }} aria-label={`Link of ${link.name}`} onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
        <CopyButton value={link.url}>
          {({ copied, copy }) => <Button variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={`Copy link of ${link.name}`}>{copied ? 'Copied' : 'Copy'}</Button>}
        </CopyButton>
      </Group>
      <Text size="sm" fw={600} mt="sm">Signed up ({link.users.length})</Text>
      <Text size="sm" c={link.users.length ? undefined : 'dimmed'}>{link.users.length ? link.users.map(personLabel).join(', ') : 'Nobody yet.'}</Text>
    </Paper>
  );
}
