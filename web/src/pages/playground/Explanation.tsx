import { Badge, Code, Group, List, Paper, Stack, Table, Text } from '@mantine/core';
import type { PlaygroundResultFeatureFragment } from '../../gql/graphql';
import { explain, resultWord, strategyBlocker, strategyLabel } from '../../logic/playground-why';
import { TableHead } from '../../components/TableHead';

type Feature = PlaygroundResultFeatureFragment;
type Strategy = Feature['strategies']['data'][number];
type Constraint = Strategy['constraints'][number];

// Mantine's green, red and yellow are too light for text (or white text) at 4.5:1: darker tones of the same hues.
export const TONE = { green: '#1b6b2c', red: '#b02a2a', amber: '#7a5200', gray: '#495057' } as const;
const WORD_COLOR = { true: TONE.green, false: TONE.red, unknown: TONE.amber } as const;

/** A result as a word with a colour (the word carries the meaning; the colour only helps). */
export function ResultBadge({ result, label }: { result: unknown; label?: string }) {
  const word = resultWord(result);
  return <Badge variant="light" color={WORD_COLOR[word]} tt="none">{label ? `${label}: ${word}` : word}</Badge>;
}

/** Why the flag came out as it did: a sentence, then each strategy in order with its constraints and segments. */
export function Explanation({ feature, environment }: { feature: Feature; environment: string }) {
  return (
    <Stack gap="sm">
      <Text size="sm" fw={600}>{explain(feature, environment)}</Text>
      <Group gap="xs">
        <Badge variant="outline" color={feature.isEnabledInCurrentEnvironment ? TONE.green : TONE.gray} tt="none">
          {feature.isEnabledInCurrentEnvironment ? `switched on in ${environment}` : `switched off in ${environment}`}
        </Badge>
        {feature.hasUnsatisfiedDependency && <Badge variant="outline" color={TONE.red} tt="none">parent dependency not satisfied</Badge>}
        <ResultBadge result={feature.strategies.result} label="strategies" />
      </Group>
      {feature.strategies.data.length === 0 && <Text size="sm" c="dimmed">The flag has no strategy in {environment}.</Text>}
      {feature.strategies.data.map((s, i) => <StrategyExplanation key={s.id} strategy={s} index={i} />)}
    </Stack>
  );
}

function parameterSummary(parameters: unknown): string | null {
  if (!parameters || typeof parameters !== 'object') return null;
  const entries = Object.entries(parameters as Record<string, unknown>).filter(([, v]) => v !== '' && v !== null && v !== undefined);
  if (!entries.length) return null;
  return entries.map(([k, v]) => `${k}=${k === 'rollout' ? `${String(v)}%` : String(v)}`).join(', ');
}

function StrategyExplanation({ strategy, index }: { strategy: Strategy; index: number }) {
  const params = parameterSummary(strategy.parameters);
  const blocker = strategy.result.enabled === true ? null : strategyBlocker(strategy);
  return (
    <Paper withBorder p="xs" radius="sm" aria-label={`Strategy ${strategyLabel(strategy, index)}`} component="section">
      <Group gap="xs" mb={4}>
        <Text size="sm" fw={600}>Strategy {strategyLabel(strategy, index)}</Text>
        {strategy.disabled ? <Badge variant="light" color={TONE.gray} tt="none">disabled (not evaluated)</Badge> : <ResultBadge result={strategy.result.enabled} />}
        <Text size="xs" c="dimmed">evaluation {strategy.result.evaluationStatus}</Text>
        {strategy.result.variant?.enabled && <Text size="xs" c="dimmed">variant {strategy.result.variant.name}</Text>}
      </Group>
      {params && <Text size="xs" c="dimmed">Parameters: {params}</Text>}
      {blocker && <Text size="sm">Not enabled because {blocker}.</Text>}
      {strategy.constraints.length > 0 && <ConstraintTable constraints={strategy.constraints} caption={`Constraints of strategy ${index + 1}`} />}
      {strategy.segments.length > 0 && (
        <List size="sm" mt="xs" spacing={4}>
          {strategy.segments.map((g) => (
            <List.Item key={g.id}>
              <Group gap="xs"><Text size="sm">Segment <b>{g.name}</b></Text><ResultBadge result={g.result} /></Group>
              {g.constraints.length > 0 && <ConstraintTable constraints={g.constraints} caption={`Constraints of segment ${g.name}`} />}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

function ConstraintTable({ constraints, caption }: { constraints: Constraint[]; caption: string }) {
  return (
    <Table fz="sm" mt="xs" withTableBorder aria-label={caption}>
      <TableHead columns={['Context field', 'Operator', 'Values', 'Result']} />
      <Table.Tbody>
        {constraints.map((c, i) => (
          <Table.Tr key={i}>
            <Table.Td><Code>{c.contextName}</Code></Table.Td>
            <Table.Td>{c.inverted ? 'NOT ' : ''}{c.operator}{c.caseInsensitive ? ' (case-insensitive)' : ''}</Table.Td>
            <Table.Td>{c.values.length ? c.values.join(', ') : (c.value ?? '')}</Table.Td>
            <Table.Td><Badge variant="light" color={c.result ? TONE.green : TONE.red} tt="none">{c.result ? 'held' : 'failed'}</Badge></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
