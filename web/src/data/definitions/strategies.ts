import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { DefinitionsStrategiesQuery } from '../../gql/graphql';
import { definitionKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { useInputMutation } from './input-mutation';

const StrategiesQuery = graphql(`
  query DefinitionsStrategies {
    strategies { name displayName title description editable deprecated parameters { name type description required } }
  }
`);
const CreateStrategy = graphql(`
  mutation DefinitionsCreateStrategy($input: CreateStrategyInput!) { createStrategy(input: $input) { name } }
`);
const UpdateStrategy = graphql(`
  mutation DefinitionsUpdateStrategy($input: UpdateStrategyInput!) { updateStrategy(input: $input) { name } }
`);
const DeprecateStrategy = graphql(`
  mutation DefinitionsDeprecateStrategy($input: DeprecateStrategyInput!) { deprecateStrategy(input: $input) { name deprecated } }
`);
const ReactivateStrategy = graphql(`
  mutation DefinitionsReactivateStrategy($input: ReactivateStrategyInput!) { reactivateStrategy(input: $input) { name deprecated } }
`);
const DeleteStrategy = graphql(`mutation DefinitionsDeleteStrategy($input: DeleteStrategyInput!) { deleteStrategy(input: $input) }`);

export type StrategyType = DefinitionsStrategiesQuery['strategies'][number];

/** What a change of strategy types makes stale: their page and the strategy editor's picker. */
const strategiesStale = () => [definitionKeys.strategies(), definitionKeys.editorStrategies()];

/** The strategy types page's list; the strategy editor uses `useStrategyDefinitions`. */
export const useStrategyTypeList = () => useQuery({ queryKey: definitionKeys.strategies(), queryFn: () => gql(StrategiesQuery) });

export const useCreateStrategyType = () => useInputMutation(CreateStrategy, strategiesStale());

/** Changes a custom strategy type; its parameters are replaced by those sent. */
export const useUpdateStrategyType = () => useInputMutation(UpdateStrategy, strategiesStale());

export const useSetStrategyDeprecated = () => useAppMutation({
  mutationFn: async ({ name, deprecated }: { name: string; deprecated: boolean }) => {
    if (deprecated) await gql(DeprecateStrategy, { input: { name } });
    else await gql(ReactivateStrategy, { input: { name } });
  },
  invalidates: strategiesStale(),
  done: (_r, v) => `${v.name} ${v.deprecated ? 'deprecated' : 'reactivated'}.`,
});

/** Deletes a custom strategy type; the variables are the row the page asked about. */
export const useDeleteStrategyType = <S extends { name: string } = { name: string }>() => useAppMutation({
  mutationFn: (s: S) => gql(DeleteStrategy, { input: { name: s.name } }),
  invalidates: strategiesStale(),
  done: (_r, s) => `Strategy type ${s.name} deleted.`,
});
