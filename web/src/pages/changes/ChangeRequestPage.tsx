import { ActionIcon, Anchor, Breadcrumbs, Button, Grid, Group, Loader, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { useChangeRequest, useDiscardChange, useRenameRequest, type Request } from '../../data/change-requests';
import { useAllowed, useMe } from '../../data/session';
import { availableActions, countChanges, requestLabel } from '../../logic/change-requests';
import { links } from '../../routing/links';
import { ChangeList } from './ChangeList';
import { RequestActions } from './RequestActions';
import { RequestComments } from './RequestComments';
import { RequestPreview } from './RequestPreview';
import { StateBadge } from './StateBadge';

/**
 * `/projects/:projectId/change-requests/:id`: one request — its state, title and author, each change as a diff
 * against the flag now (with conflicts), the review and the moves this user may make, a preview for a context, and
 * the comments.
 */
export default function ChangeRequestPage() {
  const { projectId: project = '', id: rawId = '' } = useParams();
  const id = Number(rawId);
  const request = useChangeRequest(project, id);
  const base = links.changeRequests(project);
  const crumbs = (
    <Breadcrumbs aria-label="Breadcrumb">
      <Anchor component={Link} to={links.project(project)} size="sm">{project}</Anchor>
      <Anchor component={Link} to={base} size="sm">Change requests</Anchor>
      <Text size="sm" aria-current="page">#{rawId}</Text>
    </Breadcrumbs>
  );
  if (!Number.isInteger(id) || id <= 0) return <>{crumbs}<Title order={1}>Change request</Title><Text>“{rawId}” is not a change request number.</Text></>;
  if (request.isPending) return <>{crumbs}<Title order={1}>Change request #{id}</Title><Loader aria-label="Loading the change request" /></>;
  if (request.isError) return <>{crumbs}<Title order={1}>Change request #{id}</Title><ErrorNotice error={request.error} /></>;
  return <RequestView key={id} request={request.data.changeRequest} crumbs={crumbs} listPath={base} />;
}

function RequestView({ request: r, crumbs, listPath }: { request: Request; crumbs: React.ReactNode; listPath: string }) {
  const navigate = useNavigate();
  const me = useMe();
  const allowed = useAllowed(r.project, r.environment);
  const isAuthor = r.createdByMe;
  const myId = me.data?.me.user.id;
  const reviewed = [...r.approvals, ...r.rejections].some((a) => a.userId !== null && a.userId !== undefined && a.userId === myId);
  const actions = me.data && !allowed.loading
    ? availableActions({ state: r.state, isAuthor, canApprove: allowed.can('APPROVE_CHANGE_REQUEST'), canApply: allowed.can('APPLY_CHANGE_REQUEST'), reviewed })
    : [];
  const editable = isAuthor && (r.state === 'Draft' || r.state === 'In review');
  const discard = useDiscardChange(r, () => void navigate(listPath));
  // A refusal is shown on the change it was about.
  const discardError = discard.isError && discard.variables !== undefined ? { changeId: discard.variables, error: discard.error } : null;

  return (
    <Stack gap="md">
      {crumbs}
      <div>
        <TitleLine request={r} editable={editable} />
        <Group gap="xs" mt={4}>
          <StateBadge state={r.state} size="lg" />
          <Text size="sm" c="dimmed">
            {r.environment} · by {r.createdBy.username ?? '—'} · created {new Date(r.createdAt).toLocaleString()} · {countChanges(r)} change{countChanges(r) === 1 ? '' : 's'}
          </Text>
        </Group>
      </div>
      <ProjectNav projectId={r.project} />
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Title order={2} size="h3">Changes</Title>
            {countChanges(r) === 0 && <Text c="dimmed">This request holds no changes.</Text>}
            <ChangeList request={r} mayDiscard={editable} onDiscard={(changeId) => discard.mutate(changeId)}
              discarding={discard.isPending ? discard.variables ?? null : null} discardError={discardError} />
            <RequestPreview project={r.project} id={r.id} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <RequestActions request={r} actions={actions} />
            <RequestComments request={r} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The title as the page heading, renamed in place by its author while the request is Draft or In review. */
function TitleLine({ request: r, editable }: { request: Request; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const save = useRenameRequest(r);
  const form = useForm({ initialValues: { title: r.title } });
  useServerErrors(form, save.error);
  if (!editing) {
    return (
      <Group gap="xs">
        <Title order={1}>{requestLabel(r.id, r.title)}</Title>
        {editable && (
          <Tooltip label="Rename">
            <ActionIcon variant="subtle" color="gray" aria-label="Rename the change request" onClick={() => { form.setValues({ title: r.title }); setEditing(true); }}>
              <span aria-hidden>✎</span>
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    );
  }
  const blank = !form.values.title.trim();
  return (
    <>
      <Title order={1}>{requestLabel(r.id, r.title)}</Title>
      <form onSubmit={form.onSubmit(({ title }) => { if (title.trim()) save.mutate(title, { onSuccess: () => setEditing(false) }); })}>
        <Group align="flex-end" gap="xs" mt="xs">
          <TextInput label="Title" maxLength={255} w={420} data-autofocus {...form.getInputProps('title')} />
          <Button type="submit" loading={save.isPending} disabled={blank}>Save title</Button>
          <Button variant="default" onClick={() => setEditing(false)}>Keep the title</Button>
        </Group>
        <ErrorNotice error={save.error} />
      </form>
    </>
  );
}
