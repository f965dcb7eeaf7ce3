import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { href } from '../../routing/links';
import { ROUTES, type RouteName } from '../../routing/table';

/** A project's pages that have a tab, in the route table's order. */
const TABS = (Object.entries(ROUTES) as Array<[RouteName, { projectTab?: string }]>)
  .flatMap(([name, r]) => (r.projectTab ? [{ name, label: r.projectTab }] : []));

/**
 * The pages of one project under its title. Links in a `nav` (each page has its own address) rather than tabs, which
 * would promise tab panels on this page.
 */
export function ProjectNav({ projectId }: { projectId: string }) {
  const { pathname } = useLocation();
  const tabs = TABS.map((t) => ({ ...t, to: href(t.name as 'project', { projectId }) }));
  const base = tabs[0]!.to;
  // The first tab (the flags) is the project's own address, which every other tab's address starts with.
  const current = tabs.find((t) => t.to !== base && pathname.startsWith(t.to)) ?? tabs[0]!;
  return (
    <Group component="nav" aria-label="Project pages" gap={4} mb="sm" pb={4} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      {tabs.map((t) => (
        <Button key={t.name} component={Link} to={t.to} size="compact-sm" variant={t === current ? 'light' : 'subtle'}
          aria-current={t === current ? 'page' : undefined}>
          {t.label}
        </Button>
      ))}
    </Group>
  );
}
