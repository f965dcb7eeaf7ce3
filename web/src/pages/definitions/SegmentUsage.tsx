import { Anchor, List, Loader, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useSegmentUses } from '../../data/definitions';
import { groupSegmentUses } from '../../logic/definitions';
import { links } from '../../routing/links';

/** The flags whose strategies use a segment, by project, each with its environments; read when it is opened. */
export function SegmentUsage({ id }: { id: number }) {
  const uses = useSegmentUses(id);
  if (uses.isPending) return <Loader size="sm" aria-label="Loading where the segment is used" />;
  if (uses.error) return <ErrorNotice error={uses.error} />;
  const grouped = groupSegmentUses(uses.data);
  if (grouped.length === 0) return <Text size="sm" c="dimmed">No strategy uses it.</Text>;
  return (
    <List size="sm" spacing={4}>
      {grouped.map((p) => (
        <List.Item key={p.project}>
          Project <Anchor component={Link} to={links.project(p.project)}>{p.project}</Anchor>:{' '}
          {p.features.map((f, i) => (
            <span key={f.name}>
              {i > 0 && ', '}
              <Anchor component={Link} to={links.flag(p.project, f.name)}>{f.name}</Anchor>
              {' '}({f.environments.join(', ')})
            </span>
          ))}
        </List.Item>
      ))}
    </List>
  );
}
