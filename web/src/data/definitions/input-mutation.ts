import type { QueryKey } from '@tanstack/react-query';
import { gql } from '../../api/client';
import type { TypedDocumentString } from '../../gql/graphql';
import { useAppMutation } from '../mutation';

/** `gql` for a document whose variables are given (its rest-argument form cannot be resolved for a generic input). */
const send = gql as <R, V>(document: TypedDocumentString<R, V>, variables: V) => Promise<R>;

/**
 * A change sent as one document whose only variable is `input` (the definitions' creates and updates): the hook's
 * variables are that input.
 */
export function useInputMutation<R, I>(document: TypedDocumentString<R, { input: I }>, invalidates: readonly QueryKey[]) {
  return useAppMutation({ mutationFn: (input: I) => send(document, { input }), invalidates });
}
