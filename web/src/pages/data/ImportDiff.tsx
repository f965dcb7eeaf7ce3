import { Alert, Anchor, Badge, Card, Group, List, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { DataImportChangeFragment } from '../../gql/graphql';
import { diffLines, type DiffLine, type ImportChangeLike } from '../../logic/import-export';
import { links } from '../../routing/links';

interface Item { message: string; affectedItems: string[] }

const ACTION: Record<string, { label: string; color: string }> = {
  create: { label: 'New', color: 'green' },
  update: { label: 'Updated', color: 'blue' },
  unchanged: { label: 'Unchanged', color: 'gray' },
};
const SIGN: Record<DiffLine['kind'], { sign: string; color: string; word: string }> = {
  add: { sign: '+', color: 'green.9', word: 'Added' },
  remove: { sign: '−', color: 'red.9', word: 'Removed' },
  change: { sign: '~', color: 'blue.9', word: 'Changed' },
};

/** The service's change of a flag in the shape the diff reader takes (removed strategies name their segments by id). */
const asChange = (c: DataImportChangeFragment): ImportChangeLike => ({
  ...c,
  strategies: { added: c.strategies.added, removed: c.strategies.removed.map((s) => ({ ...s, segments: s.segmentIds })) },
});

/** Errors, missing permissions or warnings of a validation: one alert, each message with the names it is about. */
export function ImportItems({ title, items, color }: { title: string; items: Item[]; color: string }) {
  if (items.length === 0) return null;
  return (
    <Alert color={color} title={title} role={color === 'red' ? 'alert' : 'status'}>
      <List size="sm" spacing={4}>
        {items.map((item, i) => (
          <List.Item key={i}>
            {item.message}
            {item.affectedItems.length > 0 && <Text span size="sm" fw={600}> {item.affectedItems.join(', ')}</Text>}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * Per flag, what an import would change (or changed) in the target: its action, then a line per property, switch,
 * strategy, variant list, tag and dependency. A flag of the target links to its page.
 */
export function ImportDiff({ changes, projectId, environment, linkFlags }: { changes: DataImportChangeFragment[]; projectId: string; environment: string; linkFlags: boolean }) {
  return (
    <Stack gap="xs">
      {changes.map((c) => {
        const lines = diffLines(asChange(c), environment);
        const action = ACTION[c.action] ?? { label: c.action, color: 'gray' };
        const headingId = `import-flag-${c.feature}`;
        return (
          <Card key={c.feature} withBorder padding="sm" component="section" aria-labelledby={headingId}>
            <Group gap="xs" mb={lines.length ? 6 : 0}>
              <Title order={3} size="h5" id={headingId}>
                {linkFlags ? (
                  <Anchor component={Link} to={links.flag(projectId, c.feature)}>{c.feature}</Anchor>
                ) : c.feature}
              </Title>
              <Badge color={action.color} variant="light" tt="none">{action.label}</Badge>
            </Group>
            {lines.length > 0 && (
              <List size="sm" spacing={2} listStyleType="none" aria-label={`Changes to ${c.feature}`}>
                {lines.map((l, i) => (
                  <List.Item key={i}>
                    <Text span ff="monospace" fw={700} c={SIGN[l.kind].color} aria-hidden mr={6}>{SIGN[l.kind].sign}</Text>
                    <VisuallyHidden>{SIGN[l.kind].word}: </VisuallyHidden>
                    <Text span size="sm">{l.text}</Text>
                  </List.Item>
                ))}
              </List>
            )}
          </Card>
        );
      })}
    </Stack>
  );
}
