import { Badge, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { changeKind, changeWord, diffPathLabel, shownValue, type DiffEntryLike, type ShownValue, type StrategyNames } from '../../logic/version-diff';

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;

/** A value inline (short text) or, for a JSON block, in a scrollable region of its own that a keyboard can reach. */
export function ValueView({ value, label }: { value: ShownValue; label: string }) {
  if (!value.block) return <Code>{value.text}</Code>;
  return <Code block tabIndex={0} role="region" aria-label={label} mah={240} style={{ overflow: 'auto' }}>{value.text}</Code>;
}

interface DiffListProps {
  entries: readonly DiffEntryLike[];
  /** Strategy names by id, for the paths. */
  names: StrategyNames;
  /** The list's accessible name ("Changes in version 3"). */
  label: string;
}

/**
 * What changed from one version to the next, one item per path: the path in words, whether something was added,
 * removed or changed, and the values (before → after; JSON in blocks side by side).
 */
export function DiffList({ entries, names, label }: DiffListProps) {
  if (entries.length === 0) return <Text size="sm" c="dimmed">Nothing in the flag’s configuration changed.</Text>;
  return (
    <Stack component="ul" gap={6} aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {entries.map((entry) => <DiffItem key={entry.path} entry={entry} names={names} context={label} />)}
    </Stack>
  );
}

function DiffItem({ entry, names, context }: { entry: DiffEntryLike; names: StrategyNames; context: string }) {
  const path = diffPathLabel(entry.path, names);
  const kind = changeKind(entry);
  const before = shownValue(entry.path, entry.before);
  const after = shownValue(entry.path, entry.after);
  const block = before.block || after.block;
  return (
    <li data-path={entry.path}>
      <Group gap={6} wrap="wrap" align="baseline">
        <Text span size="sm" fw={600}>{path}</Text>
        <Badge size="xs" variant="light" color={KIND_COLOR[kind]} tt="none">{changeWord(entry)}</Badge>
        {!block && (
          <Text span size="sm">
            {kind !== 'added' && <Code>{before.text}</Code>}
            {kind === 'changed' && ' → '}
            {kind !== 'removed' && <Code>{after.text}</Code>}
          </Text>
        )}
      </Group>
      {block && (
        <SimpleGrid cols={{ base: 1, md: kind === 'changed' ? 2 : 1 }} spacing="xs" mt={4}>
          {kind !== 'added' && (
            <div>
              <Text size="xs" c="dimmed">Before</Text>
              <ValueView value={before} label={`${context}: ${path}, before`} />
            </div>
          )}
          {kind !== 'removed' && (
            <div>
              <Text size="xs" c="dimmed">After</Text>
              <ValueView value={after} label={`${context}: ${path}, after`} />
            </div>
          )}
        </SimpleGrid>
      )}
    </li>
  );
}
