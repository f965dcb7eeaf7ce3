import { Button, Group, Table } from '@mantine/core';

export interface RowAction {
  /** The button's text ("Edit"), and its accessible name (`Edit Grace Hopper`), which says whose row it acts on. */
  label: string;
  name: string;
  onClick(): void;
  /** A destructive action (delete, remove): red. */
  danger?: boolean;
  /** Left out (the row cannot be acted on so). */
  hidden?: boolean;
}

/** The last cell of a row of the access tables: its buttons, the destructive one last and red. */
export function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <Table.Td>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {actions.filter((a) => !a.hidden).map((a) => (
          <Button key={a.label} size="compact-sm" variant={a.danger ? 'light' : 'default'} {...(a.danger ? { color: 'red' } : {})} aria-label={a.name}
            onClick={a.onClick}>{a.label}</Button>
        ))}
      </Group>
    </Table.Td>
  );
}
