import { Alert, Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useMyDraft } from '../../data/change-requests';
import { requestLabel } from '../../logic/change-requests';
import { links } from '../../routing/links';

export interface PendingRequest {
  id: number;
  title: string;
  state: string;
}

interface DraftBannerProps {
  project: string;
  environment: string;
  requiredApprovals: number;
  /** The user may not skip change requests here: edits become changes of their draft. */
  drafting: boolean;
  /** Other open requests with changes to this flag in this environment. */
  pending?: readonly PendingRequest[];
}

/**
 * What change requests mean in a guarded environment: where the user's edits go ("Draft #N: K changes", linked to
 * the request), or that they apply directly for someone who may skip the process; and the flag's other open requests.
 */
export function DraftBanner({ project, environment, requiredApprovals, drafting, pending = [] }: DraftBannerProps) {
  const { draft, error } = useMyDraft(project, environment, drafting);
  const approvals = `${requiredApprovals} approval${requiredApprovals === 1 ? '' : 's'}`;
  const others = pending.filter((r) => r.id !== draft?.id);
  return (
    <Alert color="yellow" role="note" title={`Change requests guard ${environment}`} mb="sm">
      {drafting ? (
        <Text size="sm">
          Your edits here are not applied directly: each one becomes a change of your draft change request, which needs {approvals} before it is applied.
        </Text>
      ) : (
        <Text size="sm">Changes here need {approvals} through a change request; you hold SKIP_CHANGE_REQUEST, so your edits apply directly.</Text>
      )}
      {drafting && draft && (
        <Group gap="xs" mt={6}>
          <Anchor component={Link} to={links.changeRequest(project, draft.id)} fw={600} size="sm">
            Draft #{draft.id}: {draft.changes} change{draft.changes === 1 ? '' : 's'}
          </Anchor>
          <Text size="sm" c="dimmed">— open it to review your changes and send it to review.</Text>
        </Group>
      )}
      {others.length > 0 && (
        <Group gap="xs" mt={6}>
          <Text size="sm">Open requests for this flag:</Text>
          {others.map((r) => (
            <Anchor key={r.id} component={Link} to={links.changeRequest(project, r.id)} size="sm">{requestLabel(r.id, r.title)} ({r.state})</Anchor>
          ))}
        </Group>
      )}
      <ErrorNotice error={error} title="Your draft could not be read" />
    </Alert>
  );
}
