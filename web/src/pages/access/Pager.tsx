import { Group, Pagination, Text } from '@mantine/core';

/** Page controls under a long list, every button named for screen readers; nothing when one page holds it all. */
export function Pager({ page, pages, total, onChange, noun }: { page: number; pages: number; total: number; onChange: (page: number) => void; noun: string }) {
  if (pages <= 1) return null;
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">{total} {noun}</Text>
      <Pagination total={pages} value={page} onChange={onChange} aria-label={`Pages of ${noun}`}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        getControlProps={(control) => ({ 'aria-label': { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' }[control] })} />
    </Group>
  );
}
