import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { AccessSignupLinksQuery, CreatePublicSignupTokenInput } from '../../gql/graphql';
import { accessKeys } from '../keys';
import { useAppMutation } from '../mutation';

// Public signup links (invite links). Operation names start with "Access", as before.

const SignupLinksQuery = graphql(`
  query AccessSignupLinks {
    publicSignupTokens {
      secret name url enabled expiresAt createdAt createdBy
      role { id name }
      users { id name username email }
    }
  }
`);
const CreateSignupLinkMutation = graphql(`
  mutation AccessCreateSignupLink($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { secret url } }
`);
const UpdateSignupLinkMutation = graphql(`
  mutation AccessUpdateSignupLink($input: UpdatePublicSignupTokenInput!) { updatePublicSignupToken(input: $input) { secret enabled } }
`);

export type SignupLink = AccessSignupLinksQuery['publicSignupTokens'][number];

/** The signup links (ADMIN only). */
export const useSignupLinks = (enabled: boolean) => useQuery({ queryKey: accessKeys.signupLinks(), queryFn: () => gql(SignupLinksQuery), enabled });

/** A new signup link: the answer holds its URL to share. */
export const useCreateSignupLink = () => useAppMutation({
  mutationFn: (input: CreatePublicSignupTokenInput) => gql(CreateSignupLinkMutation, { input }),
  invalidates: [accessKeys.signupLinks()],
});

/** A link enabled or disabled. */
export const useSetSignupLinkEnabled = (secret: string) => useAppMutation({
  mutationFn: (enabled: boolean) => gql(UpdateSignupLinkMutation, { input: { secret, enabled } }),
  invalidates: [accessKeys.signupLinks()],
});
