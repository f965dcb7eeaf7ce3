import { Alert, Badge, Button, Card, Group, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { VariantsTable } from './VariantsTable';
import type { FlagRef } from '../../data/flags/edits';
import { useFlagAt, type FlagVersion, type PastEnvironment, type PastFlag, type PastStrategy } from '../../data/flags/history';
import { constraintSentence, parameterSummary, strategyHeading, strategyLabel, weightPercent } from '../../logic/flag-summary';
import { relativeTime } from '../../logic/flag-list';
import { exactTime } from './VersionCard';

interface PastFlagViewProps {
  flag: FlagRef;
  version: FlagVersion;
  /** Back to the timeline, the flag as it is. */
  onBack(): void;
}

/**
 * The flag as it was when a version was made (`featureAt` at the version's instant), read-only and marked so: its
 * details, and each environment's switch, strategies and variants. "Back to the present" leaves it.
 */
export function PastFlagView({ flag, version, onBack }: PastFlagViewProps) {
  const past = useFlagAt(flag, version.createdAt);
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to what replaced the timeline, so a keyboard or screen reader user lands in the past view.
  useEffect(() => heading.current?.focus(), []);
  const n = version.version;

  return (
    <Stack gap="md" component="section" aria-labelledby="past-flag-heading">
      <Alert color="orange" role="status" variant="light">
        <Group justify="space-between" align="flex-start">
          <div>
            <Group gap="xs">
              <Title order={2} size="h3" id="past-flag-heading" ref={heading} tabIndex={-1}>{flag.name} as of version {n}</Title>
              <Badge color="orange" variant="filled" tt="none">Past · read-only</Badge>
            </Group>
            <Text size="sm" mt={4}>
              The flag as it was on {exactTime(version.createdAt)} ({relativeTime(version.createdAt)}), after
              {version.createdBy ? ` the change by ${version.createdBy}` : ' a change made outside the API'}. Nothing here can be changed: this is a
              record.
            </Text>
          </div>
          <Button variant="filled" color="blue" onClick={onBack}>Back to the present</Button>
        </Group>
      </Alert>
      <ErrorNotice error={past.error} />
      {past.isPending && <Loader size="sm" aria-label={`Loading version ${n}`} />}
      {past.data && <PastFlag flag={past.data} />}
    </Stack>
  );
}

function PastFlag({ flag }: { flag: PastFlag }) {
  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="past-details">
        <Title order={3} size="h4" id="past-details" mb="xs">Details then</Title>
        <Stack gap={6}>
          <div>
            <Text size="sm" fw={500}>Description</Text>
            <Text size="sm" c={flag.description ? undefined : 'dimmed'}>{flag.description || 'No description.'}</Text>
          </div>
          <Group gap="xs">
            <Badge variant="light" color="gray" tt="none">Type {flag.type}</Badge>
            <Badge variant="light" color="gray" tt="none">Project {flag.project}</Badge>
            <Badge variant="light" color={flag.stale ? 'orange' : 'gray'} tt="none">{flag.stale ? 'Stale' : 'Not stale'}</Badge>
            <Badge variant="light" color="gray" tt="none">Impression data {flag.impressionData ? 'on' : 'off'}</Badge>
            {flag.archived && <Badge variant="light" color="orange" tt="none">Archived</Badge>}
          </Group>
          <Text size="sm"><Text span fw={500}>Tags:</Text> {flag.tags.length ? flag.tags.map((t) => `${t.type}:${t.value}`).join(', ') : 'none'}</Text>
          <Text size="sm">
            <Text span fw={500}>Depends on:</Text>{' '}
            {flag.dependencies.length ? flag.dependencies.map((d) => `${d.feature} (${d.enabled ? 'enabled' : 'disabled'}${d.variants.length ? `: ${d.variants.join(', ')}` : ''})`).join(', ') : 'no other flag'}
          </Text>
        </Stack>
      </Card>
      {flag.environments.length === 0 && <Text c="dimmed">The flag had no environment then.</Text>}
      {flag.environments.map((env) => <PastEnvironmentCard key={env.name} environment={env} />)}
    </Stack>
  );
}

function PastEnvironmentCard({ environment }: { environment: PastEnvironment }) {
  const env = environment.name;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={`past-env-${env}`}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={3} size="h4" id={`past-env-${env}`}>{env}</Title>
          <Badge variant="light" color="gray" tt="none">{environment.type}</Badge>
        </Group>
        <Badge color={environment.enabled ? 'green' : 'gray'} variant="light" size="lg" tt="none">
          {environment.enabled ? `On in ${env}` : `Off in ${env}`}
        </Badge>
      </Group>
      <Stack gap="xs">
        {environment.strategies.length === 0 && <Text size="sm" c="dimmed">No strategies.</Text>}
        {environment.strategies.map((s, i) => <PastStrategyItem key={s.id} strategy={s} position={i} />)}
      </Stack>
      {environment.variants.length > 0 && (
        <VariantsTable variants={environment.variants} label={`Variants in ${env} then`} mt="sm" />
      )}
    </Card>
  );
}

function PastStrategyItem({ strategy, position }: { strategy: PastStrategy; position: number }) {
  const heading = strategyHeading(strategy);
  return (
    <Paper withBorder p="sm" radius="sm" component="article" aria-label={`Strategy ${heading}`}>
      <Group gap="xs">
        <Text size="sm" c="dimmed" aria-hidden>{position + 1}.</Text>
        <Text size="sm" fw={600}>{heading}</Text>
        {strategy.title && <Badge variant="light" color="gray" size="sm">{strategyLabel(strategy.name)}</Badge>}
        {strategy.disabled && <Badge color="orange" variant="light" size="sm">Disabled</Badge>}
      </Group>
      <Text size="sm">{parameterSummary(strategy.name, strategy.parameters)}</Text>
      {strategy.constraints.length > 0 && (
        <List size="sm" spacing={2} mt={4} aria-label={`Constraints of ${heading}`}>
          {strategy.constraints.map((c, i) => <List.Item key={i}>{constraintSentence(c)}</List.Item>)}
        </List>
      )}
      {strategy.segments.length > 0 && (
        <Text size="sm" mt={4}>Segments: {strategy.segments.map((s) => s.name).join(', ')}</Text>
      )}
      {strategy.variants.length > 0 && (
        <Text size="sm" mt={4}>Variants: {strategy.variants.map((v) => `${v.name} ${weightPercent(v.weight)}`).join(', ')}</Text>
      )}
    </Paper>
  );
}
