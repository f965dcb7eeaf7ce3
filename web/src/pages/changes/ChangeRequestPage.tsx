import { ActionIcon, Anchor, Breadcrumbs, Button, Grid, Group, Loader, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { gql } from '../../api/client';
import { useAllowed, useMe } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { availableActions, countChanges, requestLabel } from '../../logic/change-requests';
import { ChangeList } from './ChangeList';
import { changeRequestsKey } from './drafts';
import { RequestActions } from './RequestActions';
import { RequestComments } from './RequestComments';
import { RequestPreview } from './RequestPreview';
import { ChangeRequestPageDiscard, ChangeRequestPageQuery, ChangeRequestPageSetTitle, type Request } from './requestQueries';
import { StateBadge } from './StateBadge';
import { links } from '../../routing/links';

/**
 * `/projects/:projectId/change-requests/:id`: one request — its state, title and author, each change as a diff
 * against the flag now (with conflicts), the review and the moves this user may make, a preview for a context, and
 * the comments.
 */
export default function ChangeRequestPage() {
  const { projectId: project = '', id: rawId = '' } = useParams();
  const id = Number(rawId);
  const request = useQuery({
    queryKey: [...changeRequestsKey(project), 'request', id],
    queryFn: () => gql(ChangeRequestPageQuery, { project, id }),
    enabled: Number.isInteger(id) && id > 0,
  });
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
  const client = useQueryClient();
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
  const refresh = () => client.invalidateQueries({ queryKey: changeRequestsKey(r.project) });

  const [discardError, setDiscardError] = useState<{ changeId: number; error: unknown } | null>(null);
  const discard = useMutation({
    mutationFn: (changeId: number) => gql(ChangeRequestPageDiscard, { input: { project: r.project, id: r.id, changeId } }),
    onMutate: () => setDiscardError(null),
    onSuccess: () => {
      // The last change discarded takes the request with it (the service deletes an empty request).
      if (countChanges(r) <= 1) {
        notifications.show({ title: `Change request #${r.id} discarded`, message: 'It held no other change.' });
        void navigate(listPath);
      }
    },
    onError: (error, changeId) => setDiscardError({ changeId, error }),
    onSettled: refresh,
  });

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
  const client = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(r.title);
  const save = useMutation({
    mutationFn: () => gql(ChangeRequestPageSetTitle, { input: { project: r.project, id: r.id, title: title.trim() } }),
    onSuccess: () => setEditing(false),
    onSettled: () => client.invalidateQueries({ queryKey: changeRequestsKey(r.project) }),
  });
  if (!editing) {
    return (
      <Group gap="xs">
        <Title order={1}>{requestLabel(r.id, r.title)}</Title>
        {editable && (
          <Tooltip label="Rename">
            <ActionIcon variant="subtle" color="gray" aria-label="Rename the change request" onClick={() => { setTitle(r.title); setEditing(true); }}>
              <span aria-hidden>✎</span>
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    );
  }
  return (
    <>
      <Title order={1}>{requestLabel(r.id, r.title)}</Title>
      <form onSubmit={(e) => { e.preventDefault(); if (title.trim()) save.mutate(); }}>
        <Group align="flex-end" gap="xs" mt="xs">
          <TextInput label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} maxLength={255} w={420} data-autofocus />
          <Button type="submit" loading={save.isPending} disabled={!title.trim()}>Save title</Button>
          <Button variant="default" onClick={() => setEditing(false)}>Keep the title</Button>
        </Group>
        <ErrorNotice error={save.error} />
      </form>
    </>
  );
}
