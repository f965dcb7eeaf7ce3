import { ActionIcon, Badge, Button, Group, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useDeleteStrategy, useSetStrategyDisabled, type FlagInEnvironment, type Propose } from '../../data/flags/environment';
import type { FlagStrategy } from '../../data/flags/flag';
import { operatorLabel } from '../../logic/constraints';
import {
  constraintSentence, constraintValues, parameterSummary, strategyHeading, strategyLabel, strategyMoveName, weightPercent,
} from '../../logic/flag-summary';

export interface StrategyPermissions {
  update: boolean;
  remove: boolean;
}

interface StrategyCardProps {
  at: FlagInEnvironment;
  strategy: FlagStrategy;
  position: number;
  count: number;
  may: StrategyPermissions;
  /** Moves it one place (−1 up, +1 down); the section sends the new order. */
  onMove(delta: -1 | 1): void;
  movePending: boolean;
  /** Set after this strategy was moved with its buttons: focus returns to them once the new order is shown. */
  focusAfterMove: -1 | 1 | null;
  onFocused(): void;
  onEdit(): void;
  /** Where change requests guard the environment: disabling and deleting become changes of the user's draft. */
  propose?: Propose;
}

/** One strategy of an environment: what it does (parameters, constraints, segments, variants) and what may be done to it. */
export function StrategyCard({ at, strategy, position, count, may, onMove, movePending, focusAfterMove, onFocused, onEdit, propose }: StrategyCardProps) {
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  // A keyboard user who moved a strategy keeps their place: the same button, or the other one at the end of the list.
  useEffect(() => {
    if (focusAfterMove === null || movePending) return;
    const [first, second] = focusAfterMove === -1 ? [upRef.current, downRef.current] : [downRef.current, upRef.current];
    (first && !first.disabled ? first : second)?.focus();
    onFocused();
  }, [focusAfterMove, movePending, position, onFocused]);
  const toggle = useSetStrategyDisabled(at, strategy, propose);
  const heading = strategyHeading(strategy);
  const moveName = strategyMoveName(strategy);
  const remove = useConfirm(useDeleteStrategy(at, propose), {
    title: () => 'Delete strategy',
    message: () => (propose
      ? <>Propose deleting the strategy “{heading}” from {at.feature} in {at.environment}? The deletion goes into your draft change request.</>
      : <>Delete the strategy “{heading}” from {at.feature} in {at.environment}? This cannot be undone.</>),
    confirmLabel: propose ? 'Add deletion to draft' : 'Delete strategy',
  });

  return (
    <Paper withBorder p="sm" radius="sm" bg={strategy.disabled ? 'gray.0' : undefined} aria-label={`Strategy ${heading}`} component="article">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text size="sm" c="dimmed" aria-hidden>{position + 1}.</Text>
            <Title order={3} size="h5">{heading}</Title>
            {strategy.title && <Badge variant="light" color="gray" size="sm">{strategyLabel(strategy.name)}</Badge>}
            {strategy.disabled && <Badge color="orange" variant="light" size="sm">Disabled</Badge>}
          </Group>
          <Text size="sm">{parameterSummary(strategy.name, strategy.parameters)}</Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          {may.update && (
            <>
              <Tooltip label="Move up">
                <ActionIcon ref={upRef} variant="subtle" color="gray" aria-label={`Move ${moveName} up`} disabled={position === 0 || movePending} onClick={() => onMove(-1)}>
                  <span aria-hidden>↑</span>
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Move down">
                <ActionIcon ref={downRef} variant="subtle" color="gray" aria-label={`Move ${moveName} down`} disabled={position === count - 1 || movePending} onClick={() => onMove(1)}>
                  <span aria-hidden>↓</span>
                </ActionIcon>
              </Tooltip>
              <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${moveName}`}>Edit</Button>
              <Button size="xs" variant="default" loading={toggle.isPending} onClick={() => toggle.mutate(!strategy.disabled)}
                aria-label={`${strategy.disabled ? 'Enable' : 'Disable'} ${moveName}`}>
                {strategy.disabled ? 'Enable' : 'Disable'}
              </Button>
            </>
          )}
          {may.remove && (
            <Button size="xs" variant="outline" color="red" onClick={() => remove.ask(strategy.id)} aria-label={`Delete ${moveName}`}>Delete</Button>
          )}
        </Group>
      </Group>

      {strategy.constraints.length > 0 && (
        <Stack gap={2} mt="xs">
          <Text size="xs" fw={600} c="dimmed">Constraints</Text>
          <List size="sm" spacing={2}>
            {strategy.constraints.map((c, i) => (
              <List.Item key={i} aria-label={constraintSentence(c)}>
                <Group gap={6} wrap="wrap">
                  <Text span size="sm" fw={600}>{c.contextName}</Text>
                  {c.inverted && <Badge size="xs" color="red" variant="outline" tt="none">not</Badge>}
                  <Text span size="sm">{operatorLabel(c.operator)}</Text>
                  <Text span size="xs" c="dimmed">({c.operator})</Text>
                  {constraintValues(c).slice(0, 10).map((v) => <Badge key={v} size="sm" variant="light" color="gray" tt="none">{v}</Badge>)}
                  {constraintValues(c).length > 10 && <Text span size="xs" c="dimmed">and {constraintValues(c).length - 10} more</Text>}
                  {c.caseInsensitive && <Badge size="xs" variant="outline" color="gray" tt="none">case-insensitive</Badge>}
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}

      {strategy.segments.length > 0 && (
        <Group gap={6} mt="xs">
          <Text size="xs" fw={600} c="dimmed">Segments</Text>
          {strategy.segments.map((s) => <Badge key={s.id} variant="light" tt="none">{s.name}</Badge>)}
        </Group>
      )}

      {strategy.variants.length > 0 && (
        <Group gap={6} mt="xs">
          <Text size="xs" fw={600} c="dimmed">Variants</Text>
          {strategy.variants.map((v) => (
            <Badge key={v.name} variant="outline" color="grape" tt="none">{v.name} · {weightPercent(v.weight)}{v.payload ? ` · ${v.payload.type}` : ''}</Badge>
          ))}
        </Group>
      )}

      <ErrorNotice error={toggle.error} />
      {remove.dialog}
    </Paper>
  );
}
