import { useQuery, useQueryClient } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { notifyDone } from '../../components/notify';
import { graphql } from '../../gql';
import type { DefinitionsEnvironmentsQuery } from '../../gql/graphql';
import { moveUpdates, type Ordered } from '../../logic/definitions';
import { definitionKeys, flagKeys, playgroundKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { useInputMutation } from './input-mutation';

const EnvironmentsQuery = graphql(`
  query DefinitionsEnvironments { environments { name type enabled protected sortOrder } }
`);
const CreateEnvironment = graphql(`
  mutation DefinitionsCreateEnvironment($input: CreateEnvironmentInput!) { createEnvironment(input: $input) { name } }
`);
const UpdateEnvironment = graphql(`
  mutation DefinitionsUpdateEnvironment($input: UpdateEnvironmentInput!) { updateEnvironment(input: $input) { name } }
`);
const EnableEnvironment = graphql(`
  mutation DefinitionsEnableEnvironment($input: EnvironmentNameInput!) { enableEnvironment(input: $input) { name enabled } }
`);
const DisableEnvironment = graphql(`
  mutation DefinitionsDisableEnvironment($input: EnvironmentNameInput!) { disableEnvironment(input: $input) { name enabled } }
`);
const MoveEnvironment = graphql(`
  mutation DefinitionsMoveEnvironment($input: UpdateEnvironmentInput!) { updateEnvironment(input: $input) { name sortOrder } }
`);
const DeleteEnvironment = graphql(`
  mutation DefinitionsDeleteEnvironment($input: EnvironmentNameInput!) { deleteEnvironment(input: $input) }
`);

export type Environment = DefinitionsEnvironmentsQuery['environments'][number];

/** What a change of environments makes stale: their page, the playground's choices, the flag page's, every flag list. */
const environmentsStale = () => [definitionKeys.environments(), playgroundKeys.options(), flagKeys.choices(), projectKeys.flagsAll()];

export const useEnvironments = () => useQuery({ queryKey: definitionKeys.environments(), queryFn: () => gql(EnvironmentsQuery) });

export const useCreateEnvironment = () => useInputMutation(CreateEnvironment, environmentsStale());

export const useUpdateEnvironment = () => useInputMutation(UpdateEnvironment, environmentsStale());

/** Switches an environment on or off; the switch follows the answer at once, not after the list is read again. */
export function useSetEnvironmentEnabled() {
  const client = useQueryClient();
  return useAppMutation({
    mutationFn: async ({ name, enabled }: { name: string; enabled: boolean }) => {
      if (enabled) await gql(EnableEnvironment, { input: { name } });
      else await gql(DisableEnvironment, { input: { name } });
    },
    onSuccess: (_r, v) => client.setQueryData<DefinitionsEnvironmentsQuery>(definitionKeys.environments(), (d) =>
      d && { environments: d.environments.map((e) => (e.name === v.name ? { ...e, enabled: v.enabled } : e)) }),
    invalidates: environmentsStale(),
  });
}

/** Moves an environment one place up (-1) or down (+1) in `list`: one update per environment whose sort order changes. */
export const useMoveEnvironment = () => useAppMutation({
  mutationFn: async ({ list, name, direction }: { list: readonly Ordered[]; name: string; direction: -1 | 1 }) => {
    for (const u of moveUpdates(list, name, direction)) await gql(MoveEnvironment, { input: u });
  },
  invalidates: environmentsStale(),
  // The moved row's buttons shift under the pointer: say that the order was saved, at once and briefly (not `done`,
  // which waits for the list and keeps its notice longer).
  onSuccess: () => notifyDone('Order saved.', 1500),
});

/** Deletes an environment; the variables are the row the page asked about (its confirmation reads more of it). */
export const useDeleteEnvironment = <E extends { name: string } = { name: string }>() => useAppMutation({
  mutationFn: (e: E) => gql(DeleteEnvironment, { input: { name: e.name } }),
  invalidates: environmentsStale(),
  done: (_r, e) => `Environment ${e.name} deleted.`,
});
