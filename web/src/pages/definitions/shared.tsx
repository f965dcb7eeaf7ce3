import { Button, Group, Loader, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAllowed } from '../../data/session';

/** The page's heading and its table's name for a kind of definition ("context field" → "Context fields"). */
const pluralTitle = (noun: string) => `${noun[0]!.toUpperCase()}${noun.slice(1)}s`;

/** What the permissions to create, change and delete a kind of definition are named after (environments: ADMIN). */
type Kind = 'CONTEXT_FIELD' | 'SEGMENT' | 'STRATEGY' | 'TAG_TYPE' | 'ADMIN';

/** What the signed-in user may do with a kind of definition, as the service says. */
function useRights(kind: Kind) {
  const { can } = useAllowed();
  if (kind === 'ADMIN') return { create: kind, edit: can(kind), delete: can(kind) };
  return { create: `CREATE_${kind}` as const, edit: can(`UPDATE_${kind}`), delete: can(`DELETE_${kind}`) };
}

/** A column's heading, or one whose cells are aligned right (numbers). */
type Column = string | { label: string; ta: 'right' };

interface DefinitionsPageProps<D> {
  /** What one definition is called ("context field"): the page is "Context fields", its button "New context field". */
  noun: string;
  intro: React.ReactNode;
  /** Whose permissions its controls follow (CREATE_, UPDATE_, DELETE_ and this; ADMIN for all three). */
  permissions: Kind;
  /** The page's list (a data module's query hook). */
  query: { data?: D; error: unknown; isPending: boolean };
  columns: readonly Column[];
  /** Said instead of the table when there are no rows (else the table is shown empty). */
  empty?: string;
  /** Opens the form of a new definition (the "New …" button, for those who may create one). */
  onCreate(): void;
  /** The table's rows, once the list is read: each with its actions, as far as the user may edit and delete. */
  children(data: D, allowed: { edit: boolean; delete: boolean }): React.ReactNode[];
}

/**
 * A definitions page: heading with its "New …" button, what the definitions are for, and the table of them once read
 * (its last column the rows' actions, a heading only screen readers hear).
 */
export function DefinitionsPage<D>({ noun, intro, permissions, query, columns, empty, onCreate, children }: DefinitionsPageProps<D>) {
  const title = pluralTitle(noun);
  const rights = useRights(permissions);
  const rows = query.data ? children(query.data, rights) : null;
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1}>{title}</Title>
        <Can permission={rights.create}><Button onClick={onCreate}>{`New ${noun}`}</Button></Can>
      </Group>
      <Text c="dimmed" size="sm" mb="md">{intro}</Text>
      <ErrorNotice error={query.error} />
      {query.isPending && <Loader aria-label={`Loading ${title.toLowerCase()}`} />}
      {rows && rows.length === 0 && empty ? <Text>{empty}</Text> : rows && (
        <Table verticalSpacing="sm" aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (typeof c === 'string' ? <Table.Th key={c}>{c}</Table.Th> : <Table.Th key={c.label} ta={c.ta}>{c.label}</Table.Th>))}
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{rows}</Table.Tbody>
        </Table>
      )}
    </>
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
