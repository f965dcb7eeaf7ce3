import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { definitionKeys, flagKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { useInputMutation } from './input-mutation';

const TagTypesQuery = graphql(`query DefinitionsTagTypes { tagTypes { name description } }`);
const CreateTagType = graphql(`
  mutation DefinitionsCreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }
`);
const UpdateTagType = graphql(`
  mutation DefinitionsUpdateTagType($input: UpdateTagTypeInput!) { updateTagType(input: $input) { name } }
`);
const DeleteTagType = graphql(`mutation DefinitionsDeleteTagType($input: TagTypeNameInput!) { deleteTagType(input: $input) }`);

/** What a change of tag types makes stale: their page, and the tag picker of the flag page. */
const tagTypesStale = () => [definitionKeys.tagTypes(), flagKeys.choices()];

export const useTagTypes = () => useQuery({ queryKey: definitionKeys.tagTypes(), queryFn: () => gql(TagTypesQuery) });

export const useCreateTagType = () => useInputMutation(CreateTagType, tagTypesStale());

export const useUpdateTagType = () => useInputMutation(UpdateTagType, tagTypesStale());

export const useDeleteTagType = () => useAppMutation({
  mutationFn: (name: string) => gql(DeleteTagType, { input: { name } }),
  invalidates: tagTypesStale(),
  done: (_r, name) => `Tag type ${name} deleted.`,
});
