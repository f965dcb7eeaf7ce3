import { Table, VisuallyHidden } from '@mantine/core';

/** A column heading: its text, or the text with where it aligns, its width, or hidden (read by screen readers only). */
export type Column = string | { label: string; ta?: 'left' | 'right' | 'center'; w?: string | number; hidden?: boolean };

/** A table's header row from its columns' headings, the one way the UI's tables write theirs. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c) => {
          const { label, ta, w, hidden } = typeof c === 'string' ? { label: c } as Exclude<Column, string> : c;
          return (
            <Table.Th key={label} {...(ta ? { ta } : {})} {...(w !== undefined ? { w } : {})}>
              {hidden ? <VisuallyHidden>{label}</VisuallyHidden> : label}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}
