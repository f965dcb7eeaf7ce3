import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { ChangeOwnPasswordInput, CreatePersonalAccessTokenInput, CreateUserInput, UpdateUserInput } from '../../gql/graphql';
import type { PersonLike } from '../../logic/access';
import { accessKeys, sessionKeys } from '../keys';
import { useAppMutation } from '../mutation';

// Users, password links, the signed-in user's own password and personal access tokens. Operation names start with
// "Access", as before.

const UsersQuery = graphql(`query AccessUsers { users { id name username email rootRole createdAt seenAt } }`);
const CreateUserMutation = graphql(`mutation AccessCreateUser($input: CreateUserInput!) { createUser(input: $input) { id inviteLink } }`);
const UpdateUserMutation = graphql(`mutation AccessUpdateUser($input: UpdateUserInput!) { updateUser(input: $input) { id name email rootRole } }`);
const DeleteUserMutation = graphql(`mutation AccessDeleteUser($input: IdInput!) { deleteUser(input: $input) }`);
const ResetLinkMutation = graphql(`mutation AccessResetLink($input: CreatePasswordResetLinkInput!) { createPasswordResetLink(input: $input) { resetPasswordUrl } }`);

/** Every user (ADMIN only: for others the query's error says so, in the service's words). */
export const useUsers = (enabled = true) => useQuery({ queryKey: accessKeys.users(), queryFn: () => gql(UsersQuery), enabled });

/** A new user: the answer holds the invite link (valid 24 hours, once) that sets their password. */
export const useCreateUser = () => useAppMutation({
  mutationFn: (input: CreateUserInput) => gql(CreateUserMutation, { input }),
  invalidates: [accessKeys.users()],
});

/** A user's name, email and root role: they show in the groups' members, and may be the signed-in user's own. */
export const useUpdateUser = () => useAppMutation({
  mutationFn: (input: UpdateUserInput) => gql(UpdateUserMutation, { input }),
  invalidates: [accessKeys.users(), accessKeys.groups(), sessionKeys.me(), sessionKeys.allowedAll()],
});

/** Deletes a user (taken as the row it is asked from); they leave their groups and signup links' lists too. */
export const useDeleteUser = () => useAppMutation({
  mutationFn: (user: PersonLike) => gql(DeleteUserMutation, { input: { id: user.id } }),
  invalidates: [accessKeys.users(), accessKeys.groups(), accessKeys.signupLinks()],
});

/** A password reset link for a user, by the name they sign in with (it ends their older links). */
export const useCreateResetLink = () => useAppMutation({
  mutationFn: (login: string) => gql(ResetLinkMutation, { input: { id: login } }),
  invalidates: [],
});

// ---- the signed-in user's own -------------------------------------------------------------------------------------

const ChangePasswordMutation = graphql(`mutation AccessChangeOwnPassword($input: ChangeOwnPasswordInput!) { changeOwnPassword(input: $input) }`);
const TokensQuery = graphql(`query AccessPersonalTokens { personalAccessTokens { id description expiresAt createdAt seenAt } }`);
const CreateTokenMutation = graphql(`
  mutation AccessCreatePersonalToken($input: CreatePersonalAccessTokenInput!) { createPersonalAccessToken(input: $input) { id secret } }
`);
const DeleteTokenMutation = graphql(`mutation AccessDeletePersonalToken($input: IdInput!) { deletePersonalAccessToken(input: $input) }`);

/** The user's own new password (the service checks its strength and ends their other sessions). */
export const useChangeOwnPassword = () => useAppMutation({
  mutationFn: (input: ChangeOwnPasswordInput) => gql(ChangePasswordMutation, { input }),
  invalidates: [],
});

export const usePersonalTokens = () => useQuery({ queryKey: accessKeys.personalTokens(), queryFn: () => gql(TokensQuery) });

/** A new personal access token: the answer holds its secret, shown once. */
export const useCreatePersonalToken = () => useAppMutation({
  mutationFn: (input: CreatePersonalAccessTokenInput) => gql(CreateTokenMutation, { input }),
  invalidates: [accessKeys.personalTokens()],
});

export const useDeletePersonalToken = () => useAppMutation({
  mutationFn: (token: { id: number; description: string }) => gql(DeleteTokenMutation, { input: { id: token.id } }),
  invalidates: [accessKeys.personalTokens()],
});
