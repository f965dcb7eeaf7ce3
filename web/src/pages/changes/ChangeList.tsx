import { Alert, Anchor, Button, Card, Code, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useCurrentFeatures, type CurrentFeature, type Request, type RequestChange } from '../../data/change-requests';
import { describeChange, type CurrentEnvironment } from '../../logic/change-requests';
import type { JsonChange } from '../../logic/json-diff';
import { links } from '../../routing/links';
import { TableHead } from '../../components/TableHead';

interface ChangeListProps {
  request: Request;
  /** The author may discard changes (while the request is Draft or In review). */
  mayDiscard: boolean;
  onDiscard(changeId: number): void;
  discarding: number | null;
  discardError: { changeId: number; error: unknown } | null;
}

/**
 * The request's changes by flag (and by segment), each as what it does in words and a field-by-field diff against the
 * flag as it is now in the request's environment, with the service's conflicts and background changes.
 */
export function ChangeList({ request, mayDiscard, onDiscard, discarding, discardError }: ChangeListProps) {
  const current = useCurrentFeatures(request.features.map((f) => f.name));
  const envOf = (feature: CurrentFeature | undefined): CurrentEnvironment | null => {
    const env = feature?.environments.find((e) => e.name === request.environment);
    return env ? { enabled: env.enabled, strategies: env.strategies, variants: env.variants } : null;
  };

  const discardButton = (c: RequestChange, what: string) => mayDiscard && (
    <Button size="xs" variant="outline" color="red" loading={discarding === c.id} onClick={() => onDiscard(c.id)} aria-label={`Discard change: ${what}`}>Discard</Button>
  );

  return (
    <Stack gap="md">
      {request.features.map((f, i) => {
        const now = current[i]?.data?.feature;
        const env = envOf(now);
        // Until the flag as it is now is in, a diff would show every field as new.
        const loading = current[i]?.isPending ?? true;
        return (
          <Card key={f.name} withBorder padding="md" component="section" aria-label={`Changes to ${f.name}`}>
            <Group justify="space-between" mb="xs">
              <Title order={3} size="h4">
                <Anchor component={Link} to={links.flag(request.project, f.name)}>{f.name}</Anchor>
              </Title>
              <Text size="sm" c="dimmed">{f.changes.length} change{f.changes.length === 1 ? '' : 's'} in {request.environment}</Text>
            </Group>
            {f.conflict && <Alert color="red" role="alert" title="Conflict" mb="xs">{f.conflict}</Alert>}
            {loading && <Loader size="sm" aria-label={`Loading ${f.name} as it is now`} />}
            <Stack gap="sm">
              {!loading && f.changes.map((c) => {
                const d = describeChange(c, env, request.environment);
                return (
                  <Card key={c.id} withBorder padding="sm" radius="sm" component="article" aria-label={d.summary}>
                    <Group justify="space-between" align="flex-start">
                      <div>
                        <Text fw={600}>{d.summary}</Text>
                        <Text size="xs" c="dimmed">{c.action} · by {c.createdBy.username ?? '—'} · {new Date(c.createdAt).toLocaleString()}</Text>
                      </div>
                      {discardButton(c, d.summary)}
                    </Group>
                    {c.conflict && <Alert color="red" role="alert" title="Conflict" mt="xs">{c.conflict}</Alert>}
                    {d.order && <Reorder before={d.order.before} after={d.order.after} />}
                    {d.rows.length > 0 && <Diff rows={d.rows} label={`Diff: ${d.summary}`} />}
                    {discardError?.changeId === c.id && <ErrorNotice error={discardError.error} />}
                  </Card>
                );
              })}
            </Stack>
            {f.defaultChange && (
              <Text size="sm" mt="xs" c="dimmed">
                Applied with it: {describeChange(f.defaultChange, env, request.environment).summary} (the service adds this so the flag is not left in an invalid state).
              </Text>
            )}
            <ErrorNotice error={current[i]?.error} title={`${f.name} as it is now could not be read`} />
          </Card>
        );
      })}
      {request.segments.map((s) => (
        <Card key={s.id} withBorder padding="md" component="section" aria-label={`Changes to segment ${s.name}`}>
          <Title order={3} size="h4" mb="xs">Segment {s.name}</Title>
          <Stack gap="sm">
            {s.changes.map((c) => {
              const d = describeChange(c, null, request.environment);
              return (
                <Card key={c.id} withBorder padding="sm" radius="sm" component="article" aria-label={d.summary}>
                  <Group justify="space-between"><Text fw={600}>{d.summary}</Text>{discardButton(c, d.summary)}</Group>
                  {c.conflict && <Alert color="red" role="alert" title="Conflict" mt="xs">{c.conflict}</Alert>}
                  {d.rows.length > 0 && <Diff rows={d.rows} label={`Diff: ${d.summary}`} />}
                  {discardError?.changeId === c.id && <ErrorNotice error={discardError.error} />}
                </Card>
              );
            })}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

const shown = (v: string | undefined) => (v === undefined ? '' : v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v);

/** The fields that move: before struck through in red, after in green, and their words for screen readers. */
function Diff({ rows, label }: { rows: JsonChange[]; label: string }) {
  return (
    <Table mt="xs" fz="sm" withTableBorder aria-label={label} layout="fixed">
      <TableHead columns={[{ label: 'Field', w: '30%' }, 'Now', 'After']} />
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.path}>
            <Table.Td><Code>{r.path}</Code></Table.Td>
            <Table.Td bg={r.before !== undefined ? 'red.0' : undefined} style={{ wordBreak: 'break-word' }}>
              {r.before === undefined ? <Text span size="sm" c="dimmed">(none)</Text> : <del>{shown(r.before)}</del>}
            </Table.Td>
            <Table.Td bg={r.after !== undefined ? 'green.0' : undefined} style={{ wordBreak: 'break-word' }}>
              {r.after === undefined ? <Text span size="sm" c="dimmed">(removed)</Text> : <ins>{shown(r.after)}</ins>}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Reorder({ before, after }: { before: string[]; after: string[] }) {
  return (
    <Group align="flex-start" gap="xl" mt="xs">
      <div>
        <Text size="xs" fw={600} c="dimmed">Now</Text>
        <List type="ordered" size="sm">{before.map((s, i) => <List.Item key={i}>{s}</List.Item>)}</List>
      </div>
      <div>
        <Text size="xs" fw={600} c="dimmed">After</Text>
        <List type="ordered" size="sm">{after.map((s, i) => <List.Item key={i}>{s}</List.Item>)}</List>
      </div>
    </Group>
  );
}
