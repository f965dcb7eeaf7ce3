import { Alert, Badge, Button, Card, Group, Radio, Stack, Text, TextInput, Timeline, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormModal } from '../../components/form/FormModal';
import type { Flag } from '../../data/flags/flag';
import { useCompleteFlag, useUncompleteFlag } from '../../data/flags/lifecycle';
import type { CompletedStatus } from '../../gql/graphql';
import { LIFECYCLE_LABELS, stageDuration } from '../../logic/every-flag';

/**
 * Where the flag is in its lifecycle (issue 44): the stages it went through with the time spent in each, where an
 * environment differs, and marking it completed (kept or discarded) or taking that back. A discarded flag that SDKs
 * still report gets a warning: its code is still in use.
 */
export function FlagLifecycle({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const [completing, setCompleting] = useState(false);
  const uncomplete = useUncompleteFlag(flag);
  const { lifecycle } = flag;
  const current = lifecycle.stages.length - 1;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-lifecycle">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="flag-lifecycle">Lifecycle</Title>
        <Badge variant="light" tt="none">{LIFECYCLE_LABELS[lifecycle.stage]}</Badge>
      </Group>
      <Stack gap="sm">
        {lifecycle.trafficAfterDiscard && (
          <Alert color="red" title="Discarded, yet still in use">SDKs reported this flag after it was marked completed and discarded: its code is still there.</Alert>
        )}
        {flag.potentiallyStale && !flag.stale && (
          <Text size="sm" c="orange.9">Potentially stale: older than its type’s expected lifetime.</Text>
        )}
        <Timeline active={current} bulletSize={14} lineWidth={2} aria-label="Lifecycle stages">
          {lifecycle.stages.map((s, i) => (
            <Timeline.Item key={s.stage} title={LIFECYCLE_LABELS[s.stage]}>
              <Text size="xs" c="dimmed">
                {i === current ? `for ${stageDuration(s.durationMs)}, since ` : `${stageDuration(s.durationMs)}, from `}
                <time dateTime={s.enteredAt}>{new Date(s.enteredAt).toLocaleString()}</time>
              </Text>
              {s.status && <Text size="xs">{s.status === 'kept' ? 'Kept' : 'Discarded'}{s.statusValue ? `: ${s.statusValue}` : ''}</Text>}
            </Timeline.Item>
          ))}
        </Timeline>
        {flag.environments.some((e) => e.lifecycleStage !== flag.environments[0]?.lifecycleStage) && (
          <Text size="xs" c="dimmed">
            By environment: {flag.environments.map((e) => `${e.name} ${LIFECYCLE_LABELS[e.lifecycleStage].toLowerCase()}`).join(' · ')}
          </Text>
        )}
        <ErrorNotice error={uncomplete.error} />
        {mayUpdate && !flag.archived && (
          <Group>
            {lifecycle.stage === 'completed'
              ? <Button size="xs" variant="default" loading={uncomplete.isPending} onClick={() => uncomplete.mutate()}>Undo completed</Button>
              : <Button size="xs" variant="light" onClick={() => setCompleting(true)}>Mark completed</Button>}
          </Group>
        )}
      </Stack>
      {completing && <CompleteModal flag={flag} onClose={() => setCompleting(false)} />}
    </Card>
  );
}

function CompleteModal({ flag, onClose }: { flag: Flag; onClose: () => void }) {
  const complete = useCompleteFlag(flag);
  const form = useForm<{ status: CompletedStatus; statusValue: string }>({ initialValues: { status: 'kept', statusValue: '' } });
  return (
    <FormModal title="Mark completed" form={form} mutation={complete} submitLabel="Mark completed" onClose={onClose}
      onSubmit={({ status, statusValue }) => complete.mutate(
        { status, ...(statusValue.trim() ? { statusValue: statusValue.trim() } : {}) }, { onSuccess: onClose })}>
      <Radio.Group label="Outcome" {...form.getInputProps('status')}>
        <Stack gap={6} mt={6}>
          <Radio value="kept" label="Kept: its code path stays" />
          <Radio value="discarded" label="Discarded: its code path goes" />
        </Stack>
      </Radio.Group>
      <TextInput label="What was kept" description="Optional, for example the variant kept" maxLength={200} {...form.getInputProps('statusValue')} />
    </FormModal>
  );
}
