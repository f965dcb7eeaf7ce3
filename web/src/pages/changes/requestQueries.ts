import type { ChangeRequestPageQuery as Loaded, ChangeRequestPageFeatureQuery } from '../../gql/graphql';
import { graphql } from '../../gql';

// The change request page's GraphQL documents. Operation names start with "ChangeRequestPage" (unique across the app).

export const ChangeRequestPageQuery = graphql(`
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
export const ChangeRequestPageFeature = graphql(`
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

export const ChangeRequestPagePreview = graphql(`
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

export const ChangeRequestPageSetState = graphql(`
  mutation ChangeRequestPageSetState($input: SetChangeRequestStateInput!) { setChangeRequestState(input: $input) { id state } }
`);
export const ChangeRequestPageSetTitle = graphql(`
  mutation ChangeRequestPageSetTitle($input: SetChangeRequestTitleInput!) { setChangeRequestTitle(input: $input) { id title } }
`);
export const ChangeRequestPageComment = graphql(`
  mutation ChangeRequestPageComment($input: AddChangeRequestCommentInput!) { addChangeRequestComment(input: $input) { id } }
`);
export const ChangeRequestPageDiscard = graphql(`
  mutation ChangeRequestPageDiscard($input: ChangeRequestChangeRefInput!) { discardChangeRequestChange(input: $input) }
`);

export type Request = Loaded['changeRequest'];
export type RequestFeature = Request['features'][number];
export type RequestChange = RequestFeature['changes'][number];
export type CurrentFeature = ChangeRequestPageFeatureQuery['feature'];
