import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { DefinitionsContextFieldsQuery } from '../../gql/graphql';
import { changeRequestKeys, definitionKeys, playgroundKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { useInputMutation } from './input-mutation';

const ContextFieldsQuery = graphql(`
  query DefinitionsContextFields {
    contextFields { name description stickiness sortOrder usedInFeatures usedInProjects legalValues { value description } }
  }
`);
const CreateContextField = graphql(`
  mutation DefinitionsCreateContextField($input: CreateContextFieldInput!) { createContextField(input: $input) { name } }
`);
const UpdateContextField = graphql(`
  mutation DefinitionsUpdateContextField($input: UpdateContextFieldInput!) { updateContextField(input: $input) { name } }
`);
const DeleteContextField = graphql(`
  mutation DefinitionsDeleteContextField($input: ContextFieldNameInput!) { deleteContextField(input: $input) }
`);

export type ContextField = DefinitionsContextFieldsQuery['contextFields'][number];

/**
 * What a change of context fields makes stale: their page, the editors' field pickers and stickiness, the playground's
 * choices, and the fields a change request's constraints are shown with.
 */
const contextFieldsStale = () => [
  definitionKeys.contextFields(), definitionKeys.editorContextFields(), definitionKeys.editorStickinessAll(), playgroundKeys.options(),
  changeRequestKeys.contextFields(),
];

/** The context fields page's list (with where constraints use each); the editors use `useContextFields`. */
export const useContextFieldList = () => useQuery({ queryKey: definitionKeys.contextFields(), queryFn: () => gql(ContextFieldsQuery) });

export const useCreateContextField = () => useInputMutation(CreateContextField, contextFieldsStale());

/** Changes a context field; its legal values are replaced by those sent. */
export const useUpdateContextField = () => useInputMutation(UpdateContextField, contextFieldsStale());

/** Deletes a context field; the variables are the row the page asked about (its confirmation reads more of it). */
export const useDeleteContextField = <F extends { name: string } = { name: string }>() => useAppMutation({
  mutationFn: (f: F) => gql(DeleteContextField, { input: { name: f.name } }),
  invalidates: contextFieldsStale(),
  done: (_r, f) => `Context field ${f.name} deleted.`,
});
