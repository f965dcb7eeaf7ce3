import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { path: '', label: 'Flags' },
  { path: '/change-requests', label: 'Change requests' },
  { path: '/import', label: 'Import' },
  { path: '/access', label: 'Access' },
  { path: '/settings', label: 'Settings' },
];

/** The pages of one project, as tabs under its title; choosing a tab opens its page (each has its own address). */
export function ProjectNav({ projectId }: { projectId: string }) {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TABS.filter((t) => t.path && pathname.startsWith(base + t.path)).map((t) => t.path)[0] ?? '';
  return (
    <Tabs value={current} onChange={(v) => navigate(base + (v ?? ''))} mb="sm" aria-label="Project pages">
      <Tabs.List>
        {TABS.map((t) => (
          <Tabs.Tab key={t.path} value={t.path}>{t.label}</Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
