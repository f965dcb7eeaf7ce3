import '@mantine/dates/styles.css';
import { Alert, Button, Card, Group, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useMoveRequest, type Request } from '../../data/change-requests';
import { scheduleInstant, timeZoneLabel, type RequestAction } from '../../logic/change-requests';

interface RequestActionsProps {
  request: Request;
  /** What this user may do now (availableActions). */
  actions: RequestAction[];
}

// The picker's controls have only arrows and numbers on them: these are their accessible names.
const CALENDAR_LABELS = {
  nextMonth: 'Next month', previousMonth: 'Previous month', nextYear: 'Next year', previousYear: 'Previous year',
  nextDecade: 'Next decade', previousDecade: 'Previous decade', monthLevelControl: 'Choose the month', yearLevelControl: 'Choose the year',
};

/**
 * The review: approvals and rejections so far, the schedule (and why it failed), and the moves this user may make, with
 * an optional comment sent along. A refusal (self-approval, a state that moved meanwhile) shows under the buttons.
 */
export function RequestActions({ request, actions }: RequestActionsProps) {
  const [comment, setComment] = useState('');
  const [when, setWhen] = useState<string | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  // The comment went with the move: the box starts empty again.
  const move = useMoveRequest(request, () => setComment(''));
  const cancel = useConfirm(move, {
    title: () => 'Cancel the change request',
    message: () => <>Withdraw change request #{request.id}? Its changes are not applied, and a cancelled request cannot be reopened.</>,
    confirmLabel: 'Cancel request',
  });
  const act = (action: RequestAction) => {
    move.reset();
    if (action === 'Cancel request') return cancel.ask({ action, comment });
    if (action !== 'Schedule') return move.mutate({ action, comment });
    const at = scheduleInstant(when);
    if ('error' in at) return setScheduleError(at.error);
    setScheduleError(null);
    move.mutate({ action, comment, scheduledAt: at.iso });
  };
  const buttons = actions.filter((a) => a !== 'Schedule');
  const reviewing = actions.includes('Approve') || actions.includes('Reject');

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="review-heading">
      <Title order={2} size="h3" id="review-heading" mb="xs">Review</Title>
      <Text size="sm">
        {request.approvals.length} of {request.minApprovals} approval{request.minApprovals === 1 ? '' : 's'} needed, by users other than its author.
      </Text>
      {(request.approvals.length > 0 || request.rejections.length > 0) && (
        <List size="sm" mt={4} aria-label="Reviews">
          {request.approvals.map((a, i) => <List.Item key={`a${i}`}>Approved by {a.username ?? 'someone'} · {new Date(a.createdAt).toLocaleString()}</List.Item>)}
          {request.rejections.map((a, i) => <List.Item key={`r${i}`}>Rejected by {a.username ?? 'someone'} · {new Date(a.createdAt).toLocaleString()}</List.Item>)}
        </List>
      )}
      {request.schedule && (
        <Alert mt="sm" color={request.schedule.status === 'failed' ? 'red' : 'violet'} role={request.schedule.status === 'failed' ? 'alert' : 'note'}
          title={request.schedule.status === 'failed' ? 'The scheduled apply failed' : 'Scheduled'}>
          {request.schedule.status === 'failed' ? 'It was to be applied at ' : 'It will be applied at '}
          {new Date(request.schedule.scheduledAt).toLocaleString()} ({timeZoneLabel(new Date(request.schedule.scheduledAt))}).
          {request.schedule.failureReason && <Text size="sm" mt={4}>Reason: {request.schedule.failureReason}</Text>}
        </Alert>
      )}

      {actions.length === 0 ? (
        <Text size="sm" c="dimmed" mt="sm">There is nothing for you to do on this request now.</Text>
      ) : (
        <Stack gap="sm" mt="sm">
          {(reviewing || actions.includes('Send to review')) && (
            <Textarea label="Comment (optional)" description="Recorded with your decision" value={comment} onChange={(e) => setComment(e.currentTarget.value)} autosize minRows={1} maxLength={10000} />
          )}
          <Group gap="xs">
            {buttons.map((a) => (
              <Button key={a} variant={a === 'Reject' || a === 'Cancel request' ? 'outline' : 'filled'} color={a === 'Reject' || a === 'Cancel request' ? 'red' : undefined}
                loading={move.isPending && move.variables?.action === a} disabled={move.isPending} onClick={() => act(a)}>
                {a}
              </Button>
            ))}
          </Group>
          {actions.includes('Schedule') && (
            <Group align="flex-end" gap="xs">
              <DateTimePicker
                label={request.state === 'Scheduled' ? 'Move the apply to' : 'Apply at'}
                description={`Your time zone: ${timeZoneLabel()}`}
                placeholder="Pick a date and time"
                value={when}
                onChange={(v) => { setWhen(v); setScheduleError(null); }}
                minDate={new Date()}
                defaultTimeValue="09:00"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the date and time' }}
                w={260}
                error={scheduleError}
                submitButtonProps={{ 'aria-label': 'Set this date and time' }}
                ariaLabels={CALENDAR_LABELS}
                timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
              />
              <Button variant="light" loading={move.isPending && move.variables?.action === 'Schedule'} disabled={move.isPending} onClick={() => act('Schedule')}>Schedule</Button>
            </Group>
          )}
        </Stack>
      )}
      {/* Outside the buttons: a refusal because the request moved stays in view after the page shows its new state. */}
      {/* (A refused cancellation is shown in its confirmation.) */}
      {move.variables?.action !== 'Cancel request' && <ErrorNotice error={move.error} />}
      {cancel.dialog}
    </Card>
  );
}
