import { Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { Can } from '../../components/Can';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useSetAddonEnabled } from '../../data/integrations';
import { useAllowed } from '../../data/session';
import { filterLabel, MASK } from '../../logic/addon-form';
import { AddonDeliveries } from './AddonDeliveries';
import type { EditedAddon } from './AddonFormModal';

export interface AddonCardProps {
  addon: EditedAddon & { createdAt: string };
  providerName: string;
  onEdit(): void;
  onDelete(): void;
}

/** A parameter's value as read: the mask stays the mask (the service never gives a secret back). */
const shownValue = (value: unknown) => (value === MASK ? '***** (stored)' : String(value));

/** One addon: what it listens to, its parameters as read (secrets masked), enable/disable, edit, delete, deliveries. */
export function AddonCard({ addon, providerName, onEdit, onDelete }: AddonCardProps) {
  const { can } = useAllowed();
  const label = `${providerName} addon ${addon.id}`;
  const setEnabled = useSetAddonEnabled(addon.id);
  const parameters = Object.entries((addon.parameters ?? {}) as Record<string, unknown>).filter(([, v]) => v !== '');
  const enabled = setEnabled.isPending ? setEnabled.variables : addon.enabled;

  return (
    <Paper withBorder p="md" component="article" aria-labelledby={`addon-${addon.id}`}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={2} size="h4" id={`addon-${addon.id}`}>{label}</Title>
            <Badge variant="light" color={addon.enabled ? 'green' : 'gray'}>{addon.enabled ? 'enabled' : 'disabled'}</Badge>
          </Group>
          {addon.description && <Text size="sm">{addon.description}</Text>}
        </Stack>
        <Group gap="xs">
          <Can permission="UPDATE_ADDON">
            <Switch label="Enabled" aria-label={`${label} enabled`} checked={enabled} disabled={setEnabled.isPending}
              onChange={(e) => setEnabled.mutate(e.currentTarget.checked)} />
            <Button size="xs" variant="default" aria-label={`Edit ${label}`} onClick={onEdit}>Edit</Button>
          </Can>
          <Can permission="DELETE_ADDON">
            <Button size="xs" variant="light" color="red" aria-label={`Delete ${label}`} onClick={onDelete}>Delete</Button>
          </Can>
        </Group>
      </Group>
      <ErrorNotice error={setEnabled.error} />
      <Text size="sm" mt="xs"><strong>Events:</strong> {addon.events.join(', ') || 'none'}</Text>
      <Text size="sm"><strong>Projects:</strong> {filterLabel(addon.projects, 'all')} · <strong>Environments:</strong> {filterLabel(addon.environments, 'all')}</Text>
      {parameters.length > 0 && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <strong>Parameters:</strong> {parameters.map(([k, v]) => `${k}: ${shownValue(v)}`).join(' · ')}
        </Text>
      )}
      <AddonDeliveries addonId={addon.id} label={label} canRedeliver={can('UPDATE_ADDON')} />
    </Paper>
  );
}
