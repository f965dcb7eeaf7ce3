import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

const TABS = [
  { path: '', label: 'Flags' },
  { path: '/change-requests', label: 'Change requests' },
  { path: '/import', label: 'Import' },
  { path: '/access', label: 'Access' },
  { path: '/settings', label: 'Settings' },
];

/**
 * The pages of one project under its title. Links in a `nav` (each page has its own address) rather than tabs, which
 * would promise tab panels on this page.
 */
export function ProjectNav({ projectId }: { projectId: string }) {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const { pathname } = useLocation();
  const current = TABS.find((t) => t.path && pathname.startsWith(base + t.path)) ?? TABS[0]!;
  return (
    <Group component="nav" aria-label="Project pages" gap={4} mb="sm" pb={4} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      {TABS.map((t) => (
        <Button key={t.path} component={Link} to={base + t.path} size="compact-sm" variant={t === current ? 'light' : 'subtle'}
          aria-current={t === current ? 'page' : undefined}>
          {t.label}
        </Button>
      ))}
    </Group>
  );
}
