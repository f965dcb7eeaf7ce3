import { Badge, Group, Kbd, Modal, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useEveryFlag } from '../data/every-flag';
import { useProjects } from '../data/projects';
import { rankPalette, type PaletteItem } from '../logic/palette';
import { links } from '../routing/links';
import { ROUTES } from '../routing/table';
import type { NavSection } from './navigation';

/** Common actions: the page where each is done (listed when that page is in the user's navigation). */
const ACTIONS: Array<{ label: string; to: string }> = [
  { label: 'New project', to: ROUTES.projects.path },
  { label: 'Create an API token', to: ROUTES.apiTokens.path },
  { label: 'Add a user', to: ROUTES.users.path },
  { label: 'Evaluate in the playground', to: ROUTES.playground.path },
];

/**
 * Ctrl+K (⌘K on a Mac), or the header's button: a dialog with a search box that jumps to any flag (of every project),
 * project, page or common action by typing. Flags and projects are loaded the first time it opens (shared with their
 * pages), not with every page; ranking runs in memory, so results follow each keystroke.
 */
export function CommandPalette({ nav }: { nav: NavSection[] }) {
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const flags = useEveryFlag(opened);
  const projects = useProjects(opened);
  const open = () => { setTyped(''); setActive(0); setOpened(true); };
  useHotkeys([['mod+K', () => (opened ? setOpened(false) : open())]], []);

  const items = useMemo<PaletteItem[]>(() => {
    const pages = nav.flatMap((s) => s.items.map((i) => ({ kind: 'page' as const, label: i.label, to: i.to })));
    const shown = new Set(pages.map((p) => p.to));
    return [
      ...pages,
      ...ACTIONS.filter((a) => shown.has(a.to)).map((a) => ({ kind: 'action' as const, label: a.label, to: a.to })),
      ...(projects.data?.projects ?? []).map((p) => ({ kind: 'project' as const, label: p.name, detail: p.id, to: links.project(p.id) })),
      ...(flags.data ?? []).map((f) => ({ kind: 'flag' as const, label: f.name, detail: f.project, to: links.flag(f.project, f.name) })),
    ];
  }, [nav, projects.data, flags.data]);
  // Ranking 10,000 flags takes a few milliseconds; the debounce keeps fast typing from queueing them.
  const [query] = useDebouncedValue(typed, 40);
  const results = useMemo(() => rankPalette(items, query), [items, query]);
  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    setOpened(false);
    navigate(item.to);
  };
  const optionId = (i: number) => `palette-option-${i}`;

  return (
    <>
      <UnstyledButton onClick={open} aria-keyshortcuts="Control+K Meta+K" title="Go to a flag, project or page">
        <Group gap={6} px="sm" py={4} style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 6 }}>
          <Text size="sm" c="dimmed">Go to…</Text>
          <Kbd size="xs">Ctrl K</Kbd>
        </Group>
      </UnstyledButton>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Go to" size="lg" yOffset="10vh">
        <TextInput type="search" aria-label="Search" placeholder="A flag, project, page or action" data-autofocus value={typed}
          aria-controls="palette-results" aria-activedescendant={results.length ? optionId(Math.min(active, results.length - 1)) : undefined}
          onChange={(e) => { setTyped(e.currentTarget.value); setActive(0); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setActive((a) => Math.min(a + 1, results.length - 1)); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => Math.max(a - 1, 0)); }
            else if (e.key === 'Enter') { e.preventDefault(); go(results[Math.min(active, results.length - 1)]); }
          }} />
        {opened && flags.isPending && <Text size="xs" c="dimmed" mt={6} role="status">Loading flags…</Text>}
        <div id="palette-results" role="listbox" aria-label="Results" style={{ marginTop: 8, maxHeight: '50vh', overflow: 'auto' }}>
          {results.map((item, i) => (
            <div key={`${item.kind}:${item.to}`} id={optionId(i)} role="option" aria-selected={i === active}
              onMouseEnter={() => setActive(i)} onClick={() => go(item)}
              style={{ padding: '6px 10px', borderRadius: 4, cursor: 'pointer', background: i === active ? 'var(--mantine-color-blue-light)' : undefined }}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={500} truncate>{item.label}</Text>
                <Group gap={6} wrap="nowrap">
                  {item.detail && <Text size="xs" c="dimmed">{item.detail}</Text>}
                  <Badge size="xs" variant="light" color="gray">{item.kind}</Badge>
                </Group>
              </Group>
            </div>
          ))}
          {results.length === 0 && query && !flags.isPending && <Text size="sm" c="dimmed" p="sm">Nothing matches “{query}”.</Text>}
        </div>
      </Modal>
    </>
  );
}
