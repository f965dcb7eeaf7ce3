import { useMutation, useQueries, useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { ChangeRequestPageFeatureQuery, ChangeRequestPageQuery as Loaded, PlaygroundContextInput } from '../../gql/graphql';
import { ACTIONS, countChanges, type RequestAction } from '../../logic/change-requests';
import { changeRequestKeys, flagKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { notifyDone } from '../../components/notify';

// A project's change requests: the list and one request's page (its changes against the flags now, its review, its
// comments, a preview). Operation names start with "ChangeRequest" (unique across the app).

const ListQuery = graphql(`
  query ChangeRequestsList($project: String!) {
    changeRequests(project: $project) {
      id title environment state minApprovals createdAt
      createdBy { username }
      approvals { username }
      features { name changes { id } }
      segments { id name changes { id } }
      schedule { scheduledAt status }
    }
  }
`);

const RequestQuery = graphql(`
  query ChangeRequestPage($project: String!, $id: Int!) {
    changeRequest(project: $project, id: $id) {
      id title environment state minApprovals project createdAt
      createdBy { username }
      createdByMe
      approvals { username userId createdAt }
      rejections { username userId createdAt }
      comments { id text createdAt createdBy { username } }
      schedule { scheduledAt status failureReason }
      features {
        name conflict
        defaultChange { action payload }
        changes { id action payload conflict createdAt createdBy { username } }
      }
      segments { id name changes { id action payload conflict createdAt createdBy { username } } }
    }
  }
`);

/** A flag as it is now, to compare the request's changes with. */
const FeatureQuery = graphql(`
  query ChangeRequestPageFeature($name: String!) {
    feature(name: $name) {
      name project archived
      environments {
        name enabled
        strategies {
          id name title disabled sortOrder parameters segmentIds
          constraints { contextName operator values value caseInsensitive inverted }
          variants { name weight weightType stickiness payload { type value } }
        }
        variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
      }
    }
  }
`);

const ContextFieldsQuery = graphql(`
  query ChangeRequestPageContextFields { contextFields { name description legalValues { value description } } }
`);

const PreviewQuery = graphql(`
  query ChangeRequestPagePreview($project: String!, $id: Int!, $contexts: [PlaygroundContextInput!]!) {
    changeRequest(project: $project, id: $id) {
      id
      preview(contexts: $contexts) {
        changedCount environment
        warnings { changeId action feature message }
        features {
          name reasons
          results { changed context before { isEnabled variant { name } } after { isEnabled variant { name } } }
        }
      }
    }
  }
`);

const SetState = graphql(`
  mutation ChangeRequestPageSetState($input: SetChangeRequestStateInput!) { setChangeRequestState(input: $input) { id state } }
`);
const SetTitle = graphql(`
  mutation ChangeRequestPageSetTitle($input: SetChangeRequestTitleInput!) { setChangeRequestTitle(input: $input) { id title } }
`);
const AddComment = graphql(`
  mutation ChangeRequestPageComment($input: AddChangeRequestCommentInput!) { addChangeRequestComment(input: $input) { id } }
`);
const Discard = graphql(`
  mutation ChangeRequestPageDiscard($input: ChangeRequestChangeRefInput!) { discardChangeRequestChange(input: $input) }
`);

export type Request = Loaded['changeRequest'];
export type RequestFeature = Request['features'][number];
export type RequestChange = RequestFeature['changes'][number];
export type CurrentFeature = ChangeRequestPageFeatureQuery['feature'];

export const useChangeRequests = (project: string) =>
  useQuery({ queryKey: changeRequestKeys.list(project), queryFn: () => gql(ListQuery, { project }) });

/** One request; asked only for a request number (an id that is not one is the page's to say). */
export const useChangeRequest = (project: string, id: number) => useQuery({
  queryKey: changeRequestKeys.request(project, id),
  queryFn: () => gql(RequestQuery, { project, id }),
  enabled: Number.isInteger(id) && id > 0,
});

/** The flags of a request as they are now, one query each (in the order of `names`). */
export const useCurrentFeatures = (names: string[]) => useQueries({
  queries: names.map((name) => ({
    queryKey: changeRequestKeys.currentFeature(name),
    queryFn: () => gql(FeatureQuery, { name }),
    // A flag deleted since is a conflict the service names; not asking again keeps the page quiet.
    retry: false,
  })),
});

export const useRequestContextFields = () =>
  useQuery({ queryKey: changeRequestKeys.contextFields(), queryFn: () => gql(ContextFieldsQuery), staleTime: 60_000 });

/** "What would this request change for this context": asked on demand; the service writes nothing. */
export const useRequestPreview = (project: string, id: number) => useMutation({
  mutationFn: (context: PlaygroundContextInput) => gql(PreviewQuery, { project, id, contexts: [context] }),
});

/** What a move of a request (or a change of its content) makes stale: the project's requests, lists and drafts. */
const requestsStale = (project: string) => [changeRequestKeys.project(project)];

const MOVED: Record<RequestAction, string> = {
  'Send to review': 'Sent to review',
  Approve: 'Approved',
  Reject: 'Rejected',
  Apply: 'Applied',
  Schedule: 'Scheduled',
  'Cancel request': 'Cancelled',
};

export interface RequestMove {
  action: RequestAction;
  /** Recorded with the decision (sent only when not blank). */
  comment?: string;
  scheduledAt?: string;
}

/**
 * A move of the request (send to review, approve, reject, apply, schedule, cancel), with an optional comment.
 * Whatever happened, the request is read again (another user may have moved it meanwhile); an applied request changed
 * its flags, so the diffs here, the flag pages and the project's flag list read them again. `onMoved` is the page's
 * follow-up (so the cancel confirmation can use it too).
 */
export function useMoveRequest(request: Pick<Request, 'project' | 'id'>, onMoved?: () => void) {
  return useAppMutation({
    mutationFn: ({ action, comment, scheduledAt }: RequestMove) => gql(SetState, {
      input: {
        project: request.project, id: request.id, state: ACTIONS[action],
        ...(comment?.trim() ? { comment: comment.trim() } : {}),
        ...(scheduledAt ? { scheduledAt } : {}),
      },
    }),
    onSuccess: (r, { action }) => {
      onMoved?.();
      notifyDone({ title: `Change request #${request.id}`, message: `${MOVED[action]}: it is now ${r.setChangeRequestState.state}.` });
    },
    invalidates: [changeRequestKeys.currentFeatures(), flagKeys.all, projectKeys.flags(request.project), ...requestsStale(request.project)],
  });
}

export const useRenameRequest = (request: Pick<Request, 'project' | 'id'>) => useAppMutation({
  mutationFn: (title: string) => gql(SetTitle, { input: { project: request.project, id: request.id, title: title.trim() } }),
  invalidates: requestsStale(request.project),
});

export const useAddComment = (request: Pick<Request, 'project' | 'id'>) => useAppMutation({
  mutationFn: (text: string) => gql(AddComment, { input: { project: request.project, id: request.id, text: text.trim() } }),
  invalidates: requestsStale(request.project),
});

/**
 * Discards one change of the request. The last one discarded takes the request with it (the service deletes an empty
 * request): that is said, and `onGone` (leaving its page) runs before the project's requests are read again.
 */
export function useDiscardChange(request: Request, onGone: () => void) {
  return useAppMutation({
    mutationFn: (changeId: number) => gql(Discard, { input: { project: request.project, id: request.id, changeId } }),
    onSuccess: () => {
      if (countChanges(request) > 1) return;
      notifyDone({ title: `Change request #${request.id} discarded`, message: 'It held no other change.' });
      onGone();
    },
    invalidates: requestsStale(request.project),
  });
}
