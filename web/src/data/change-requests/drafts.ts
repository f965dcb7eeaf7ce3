import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { countChanges, findDraft } from '../../logic/change-requests';
import { changeRequestKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { notifyDone } from '../../components/notify';

// The user's Draft change request per project environment: read, and added to. Used by the flag page and the flag list
// wherever change requests guard an environment and the user may not skip them.

const DraftsQuery = graphql(`
  query ChangeDraftsOfProject($project: String!) {
    changeRequests(project: $project, state: "Draft") {
      id title environment state
      createdByMe
      features { name changes { id } }
      segments { id changes { id } }
    }
  }
`);

const AddChangesMutation = graphql(`
  mutation ChangeDraftsAdd($input: AddChangeRequestChangesInput!) {
    addChangeRequestChanges(input: $input) {
      id environment
      features { name changes { id } }
      segments { id changes { id } }
    }
  }
`);

/** The signed-in user's Draft in one environment of a project (undefined while there is none), with its change count. */
export function useMyDraft(project: string, environment: string, enabled = true) {
  const drafts = useQuery({
    queryKey: changeRequestKeys.drafts(project),
    queryFn: () => gql(DraftsQuery, { project }),
    enabled,
    staleTime: 10_000,
  });
  const draft = findDraft(drafts.data?.changeRequests ?? [], environment);
  return { draft: draft && { id: draft.id, title: draft.title, changes: countChanges(draft) }, error: drafts.error };
}

/** A change as the service takes it (`{action, feature?, payload}`, the REST body of a change). */
export interface ProposedChange {
  action: string;
  feature?: string;
  payload?: unknown;
}

/**
 * Adds changes to the user's Draft for an environment (the service creates the Draft when there is none), says where
 * the change went, and reads the project's requests again (drafts, lists, a flag's pending requests).
 */
export function useProposeChanges(project: string) {
  return useAppMutation({
    mutationFn: ({ environment, changes }: { environment: string; changes: ProposedChange | ProposedChange[] }) =>
      gql(AddChangesMutation, { input: { project, environment, changes } }),
    onSuccess: (r, { environment }) => {
      const n = countChanges(r.addChangeRequestChanges);
      notifyDone({ title: `Added to draft #${r.addChangeRequestChanges.id}`, message: `It now holds ${n} change${n === 1 ? '' : 's'} for ${environment}.` });
    },
    invalidates: [changeRequestKeys.project(project)],
  });
}
