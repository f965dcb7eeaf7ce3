import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { AccessGroupsQuery, CreateGroupInput, UpdateGroupInput } from '../../gql/graphql';
import { accessKeys, sessionKeys } from '../keys';
import { useAppMutation } from '../mutation';

// Groups and their members. Operation names start with "Access", as before.

const GroupsQuery = graphql(`
  query AccessGroups {
    groups {
      id name description rootRole mappingsSSO userCount createdAt
      users { joinedAt user { id name username email } }
    }
  }
`);
const CreateGroupMutation = graphql(`mutation AccessCreateGroup($input: CreateGroupInput!) { createGroup(input: $input) { id } }`);
const UpdateGroupMutation = graphql(`mutation AccessUpdateGroup($input: UpdateGroupInput!) { updateGroup(input: $input) { id userCount } }`);
const DeleteGroupMutation = graphql(`mutation AccessDeleteGroup($input: GroupIdInput!) { deleteGroup(input: $input) }`);

export type AccessGroup = AccessGroupsQuery['groups'][number];

/** A group's root role is every member's: what a change of groups makes stale besides the list. */
const groupsStale = () => [accessKeys.groups(), sessionKeys.allowedAll()];

/** Every group with its members. */
export const useGroups = () => useQuery({ queryKey: accessKeys.groups(), queryFn: () => gql(GroupsQuery) });

export const useCreateGroup = () => useAppMutation({
  mutationFn: (input: CreateGroupInput) => gql(CreateGroupMutation, { input }),
  invalidates: [accessKeys.groups()],
});

/** updateGroup replaces the whole group: its fields and its members, as given. */
export const useUpdateGroup = () => useAppMutation({
  mutationFn: (input: UpdateGroupInput) => gql(UpdateGroupMutation, { input }),
  invalidates: groupsStale(),
});

/** A group's members set to `members` (its other fields sent as they are). */
export const useSetGroupMembers = (group: AccessGroup | null) => useAppMutation({
  mutationFn: (members: number[]) => gql(UpdateGroupMutation, { input: {
    id: group!.id, name: group!.name, description: group!.description ?? null, rootRole: group!.rootRole ?? null, mappingsSSO: group!.mappingsSSO, users: members,
  } }),
  invalidates: groupsStale(),
});

export const useDeleteGroup = () => useAppMutation({
  mutationFn: (group: { id: number; name: string }) => gql(DeleteGroupMutation, { input: { id: group.id } }),
  invalidates: groupsStale(),
});
