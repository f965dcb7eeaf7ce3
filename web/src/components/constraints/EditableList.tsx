import { ActionIcon, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';

interface EditableListProps {
  title: string;
  /** The heading's level where the list sits (2 in a definition's form, 3 under a strategy's sections). */
  order?: 2 | 3;
  /** What the list means as it is (empty, or what its rows do). */
  summary: string;
  addLabel: string;
  onAdd(): void;
  /** Between the heading and the rows (a notice the rows depend on). */
  notice?: React.ReactNode;
  children: React.ReactNode;
}

/** A list a form edits row by row (constraints, legal values, strategy parameters): heading, the rows, the add button. */
export function EditableList({ title, order = 2, summary, addLabel, onAdd, notice, children }: EditableListProps) {
  return (
    <Stack gap="xs">
      <div>
        <Title order={order} size="h5">{title}</Title>
        <Text size="sm" c="dimmed">{summary}</Text>
      </div>
      {notice}
      {children}
      <Group>
        <Button variant="default" size="xs" onClick={onAdd}>{addLabel}</Button>
      </Group>
    </Stack>
  );
}

/** A row's remove button (✕, named and with a tooltip), level with the row's labelled inputs. */
export function RemoveButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="red" mt={26} aria-label={label} onClick={onClick}>
        <span aria-hidden>✕</span>
      </ActionIcon>
    </Tooltip>
  );
}
