import { Badge, Button, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useCallback, useState } from 'react';
import { Can } from '../../components/Can';
import { ErrorNotice } from '../../components/ErrorNotice';
import { StrategyForm } from '../../components/strategy/StrategyForm';
import { FeatureVariantsEditor } from '../../components/variants/FeatureVariantsEditor';
import { useSetEnabled, useSortStrategies, type Propose } from '../../data/flags/environment';
import type { FlagEnvironment, FlagStrategy } from '../../data/flags/flag';
import { useAllowed } from '../../data/session';
import type { PermissionName } from '../../gql/graphql';
import { movedSortOrder } from '../../logic/flag-summary';
import { DraftBanner, type PendingRequest } from '../changes/DraftBanner';
import { useProposeChanges } from '../../data/change-requests';
import { StrategyCard } from './StrategyCard';
import { VariantsTable } from './VariantsTable';

interface EnvironmentSectionProps {
  project: string;
  featureName: string;
  environment: FlagEnvironment;
  /** The environment's change-request settings when change requests guard it. */
  changeRequests?: { requiredApprovals: number };
  /** Open change requests with changes to this flag in this environment. */
  pending?: readonly PendingRequest[];
  /** An archived flag is shown read-only. */
  readOnly: boolean;
}

/** One environment of the flag: its switch, its strategies in order, and its variants, with what the user may do to them. */
export function EnvironmentSection({ project, featureName, environment, changeRequests, pending, readOnly }: EnvironmentSectionProps) {
  const env = environment.name;
  const allowed = useAllowed(project, env);
  const can = (permission: PermissionName) => !readOnly && allowed.can(permission);
  const [editing, setEditing] = useState<FlagStrategy | 'new' | null>(null);
  const [editingVariants, setEditingVariants] = useState(false);
  const [moved, setMoved] = useState<{ id: string; delta: -1 | 1; to: number } | null>(null);
  const clearMoved = useCallback(() => setMoved(null), []);

  // Guarded, and the user may not skip the process: every edit below becomes a change of their draft instead.
  const drafting = !!changeRequests && !allowed.loading && !allowed.can('SKIP_CHANGE_REQUEST');
  const proposal = useProposeChanges(project);
  const propose: Propose | undefined = drafting ? (change) => proposal.mutateAsync({ environment: env, changes: change }) : undefined;
  const at = { project, feature: featureName, environment: env };
  const setEnabled = useSetEnabled(at, propose);
  const sort = useSortStrategies(at, propose);

  const strategies = environment.strategies;
  const move = (index: number, delta: -1 | 1) => {
    const order = movedSortOrder(strategies.map((s) => s.id), index, delta);
    if (!order) return;
    setMoved({ id: strategies[index].id, delta, to: index + delta });
    sort.mutate(order);
  };
  const closeEditors = () => {
    setEditing(null);
    setEditingVariants(false);
  };

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={`env-${env}`}>
      <Group justify="space-between" align="center" mb="xs">
        <Group gap="xs">
          <Title order={2} size="h3" id={`env-${env}`}>{env}</Title>
          <Badge variant="light" color="gray" tt="none">{environment.type}</Badge>
          {environment.lastSeenAt && <Text size="xs" c="dimmed">last seen {new Date(environment.lastSeenAt).toLocaleString()}</Text>}
        </Group>
        {can('UPDATE_FEATURE_ENVIRONMENT') ? (
          <Switch
            label={`Enabled in ${env}`}
            labelPosition="left"
            checked={environment.enabled}
            disabled={setEnabled.isPending}
            onChange={(e) => setEnabled.mutate(e.currentTarget.checked)}
          />
        ) : (
          <Badge color={environment.enabled ? 'green' : 'gray'} variant="light" size="lg" tt="none">
            {environment.enabled ? `On in ${env}` : `Off in ${env}`}
          </Badge>
        )}
      </Group>
      <ErrorNotice error={setEnabled.error} />

      {changeRequests && (
        <DraftBanner project={project} environment={env} requiredApprovals={changeRequests.requiredApprovals} drafting={drafting} {...(pending ? { pending } : {})} />
      )}

      <Stack gap="xs">
        {strategies.length === 0 && <Text size="sm" c="dimmed">No strategies: when switched on, the flag is on for everyone.</Text>}
        {strategies.map((s, i) => (
          <StrategyCard
            key={s.id}
            at={at}
            strategy={s}
            position={i}
            count={strategies.length}
            may={{ update: can('UPDATE_FEATURE_STRATEGY'), remove: can('DELETE_FEATURE_STRATEGY') }}
            onMove={(delta) => move(i, delta)}
            movePending={sort.isPending}
            focusAfterMove={moved?.id === s.id && moved.to === i ? moved.delta : null}
            onFocused={clearMoved}
            onEdit={() => setEditing(s)}
            {...(propose ? { propose } : {})}
          />
        ))}
        <ErrorNotice error={sort.error} />
        {!readOnly && (
          <Can permission="CREATE_FEATURE_STRATEGY" project={project} environment={env}>
            <Group>
              <Button variant="light" size="sm" onClick={() => setEditing('new')}>Add strategy</Button>
            </Group>
          </Can>
        )}
      </Stack>

      <Group justify="space-between" mt="md" mb={4}>
        <Title order={3} size="h5">Variants</Title>
        {!readOnly && (
          <Can permission="UPDATE_FEATURE_ENVIRONMENT_VARIANTS" project={project} environment={env}>
            <Button variant="default" size="xs" onClick={() => setEditingVariants(true)} aria-label={`Edit variants in ${env}`}>Edit variants</Button>
          </Can>
        )}
      </Group>
      {environment.variants.length === 0 ? (
        <Text size="sm" c="dimmed">No variants.</Text>
      ) : (
        <VariantsTable variants={environment.variants} label={`Variants in ${env}`} />
      )}

      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add strategy' : 'Edit strategy'} size="xl">
        {editing !== null && (
          <StrategyForm at={at} {...(editing === 'new' ? {} : { strategy: editing })} onClose={closeEditors} {...(propose ? { propose } : {})} />
        )}
      </Modal>
      <Modal opened={editingVariants} onClose={() => setEditingVariants(false)} title="Edit variants" size="xl">
        {editingVariants && (
          <FeatureVariantsEditor at={at} variants={environment.variants} onClose={closeEditors} {...(propose ? { propose } : {})} />
        )}
      </Modal>
    </Card>
  );
}
