import { AppShell, Burger, Button, Center, Divider, Group, Loader, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useAllowed, useMe, useSignOut } from '../data/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { OutageBanner } from '../components/OutageBanner';
import { CommandPalette } from './CommandPalette';
import { visibleNav } from './navigation';
import { href } from '../routing/links';

/** The signed-in frame: header with the user and "Sign out", the main navigation, and the page in `main`. */
export function AppLayout() {
  const me = useMe();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const root = useAllowed();
  const signOut = useSignOut();
  const onSignOut = () => signOut.mutate(undefined, { onSuccess: () => navigate(href('login'), { replace: true }) });

  if (me.isPending || (me.isError && (me.error as { status?: number }).status === 401)) {
    return <Center component="main" h="100vh"><Loader aria-label="Loading" /></Center>;
  }
  // Who is signed in could not be read at all (a refetch that fails keeps what was read): the refusal, in its words.
  if (me.isError && !me.data) return <main style={{ padding: 24 }}><OutageBanner /><ErrorNotice error={me.error} /></main>;
  const user = me.data.me.user;
  const nav = visibleNav(root.can);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={2} size="h4">flagdeck</Title>
          </Group>
          <Group gap="sm">
            <CommandPalette nav={nav} />
            <Text size="sm" c="dimmed" visibleFrom="sm">Signed in as {user.name || user.username || user.email}</Text>
            <Button variant="default" size="xs" onClick={onSignOut}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea type="auto">
          {nav.map((section, i) => (
            <div key={section.label ?? i}>
              {i > 0 && <Divider my={6} />}
              {section.label && <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4}>{section.label}</Text>}
              {section.items.map((item) => (
                <NavLink key={item.to} component={Link} to={item.to} label={item.label} onClick={close}
                  active={location.pathname === item.to || location.pathname.startsWith(`${item.to}/`)} />
              ))}
            </div>
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <OutageBanner />
        <Suspense fallback={<Loader aria-label="Loading" />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
