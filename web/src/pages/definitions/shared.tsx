import { Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { PermissionName } from '../../gql/graphql';

interface DefinitionsPageProps<D> {
  title: string;
  intro: React.ReactNode;
  /** The "New …" button, shown to those who hold its permission. */
  create: { label: string; permission: PermissionName; onClick(): void };
  /** The page's list (a data module's query hook). */
  query: { data?: D; error: unknown; isPending: boolean };
  loadingLabel: string;
  /** The list, once it is read. */
  children(data: D): React.ReactNode;
}

/** A definitions page: heading with its "New …" button, what the definitions are for, and the list once read. */
export function DefinitionsPage<D>({ title, intro, create, query, loadingLabel, children }: DefinitionsPageProps<D>) {
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{title}</Title>
        <Can permission={create.permission}><Button onClick={create.onClick}>{create.label}</Button></Can>
      </Group>
      <Text c="dimmed" size="sm" mb="md">{intro}</Text>
      <ErrorNotice error={query.error} />
      {query.isPending && <Loader aria-label={loadingLabel} />}
      {query.data && children(query.data)}
    </>
  );
}

/** A column's heading, or one whose cells are aligned right (numbers). */
type Column = string | { label: string; ta: 'right' };

/** A definitions table: its columns' headings, then the rows' actions (a heading only screen readers hear). */
export function DefinitionsTable({ label, columns, children }: { label: string; columns: readonly Column[]; children: React.ReactNode }) {
  return (
    <Table verticalSpacing="sm" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (typeof c === 'string' ? <Table.Th key={c}>{c}</Table.Th> : <Table.Th key={c.label} ta={c.ta}>{c.label}</Table.Th>))}
          <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}

interface RowActionsProps {
  name: string;
  /** Each button only where given (false: not allowed). */
  onEdit?: false | (() => void);
  onDelete?: false | (() => void);
  /** More buttons, between Edit and Delete. */
  children?: React.ReactNode;
}

/** A row's Edit and Delete buttons, named after the row. */
export function RowActions({ name, onEdit, onDelete, children }: RowActionsProps) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {onEdit && <Button size="xs" variant="default" aria-label={`Edit ${name}`} onClick={onEdit}>Edit</Button>}
      {children}
      {onDelete && <Button size="xs" variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={onDelete}>Delete</Button>}
    </Group>
  );
}

/** Which form of a page is open: none, a new definition's, or the one editing `editing`. */
export function useFormOpen<T>() {
  const [open, setOpen] = useState<{ editing: T | null } | null>(null);
  return { open, create: () => setOpen({ editing: null }), edit: (editing: T) => setOpen({ editing }), close: () => setOpen(null) };
}

/** A refusal about one row of a definitions table, shown in a row of its own right under it (nothing when none). */
export function RowError({ error, colSpan }: { error: unknown; colSpan: number }) {
  if (!error) return null;
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan} py={0}><ErrorNotice error={error} /></Table.Td>
    </Table.Tr>
  );
}

/** Which row's action failed last, so its refusal is shown next to it (cleared when another action starts). */
export function useRowError<K>() {
  const [failed, setFailed] = useState<{ key: K; error: unknown } | null>(null);
  return {
    errorFor: (key: K) => (failed && failed.key === key ? failed.error : null),
    fail: (key: K, error: unknown) => setFailed({ key, error }),
    clear: () => setFailed(null),
  };
}
