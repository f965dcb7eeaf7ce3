import { Table, VisuallyHidden, type TableProps } from '@mantine/core';

/** A column head: its text, right-aligned for numbers. */
export type Column = string | { label: string; right: true };

interface AccessTableProps extends TableProps {
  /** The table's accessible name (where the page gives it one). */
  label?: string;
  columns: Column[];
  /** A last column of row actions (its head named for screen readers only), when the reader may act on the rows. */
  actions?: boolean;
  children: React.ReactNode;
}

/** A list of the access and token pages (users, groups, roles, a project's access, tokens): named, headed, one row an item. */
export function AccessTable({ label, columns, actions = false, children, ...props }: AccessTableProps) {
  return (
    <Table verticalSpacing="xs" {...(label ? { 'aria-label': label } : {})} {...props}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (typeof c === 'string' ? <Table.Th key={c}>{c}</Table.Th> : <Table.Th key={c.label} ta="right">{c.label}</Table.Th>))}
          {actions && <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}
