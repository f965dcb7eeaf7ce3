import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { AddFeatureStrategyInput, FeatureVariantInput } from '../../gql/graphql';
import { strategyPayload } from '../../logic/change-requests';
import type { ProposedChange } from '../change-requests';
import { changeRequestKeys, flagKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';
import type { FlagStrategy } from './flag';

// Changes to a flag in one environment: its switch, its strategies and its variants. Where change requests guard the
// environment and the user may not skip them, each is sent to the user's draft (`propose`) instead of applied. Each
// hook sits under the document it sends; operation names as before.

/** A flag in one environment, named as the service's inputs name it. */
export interface FlagInEnvironment {
  project: string;
  feature: string;
  environment: string;
}

/** Sends a change to the user's draft change request of the environment (given where they must propose). */
export type Propose = (change: ProposedChange) => Promise<unknown>;

/** What a change in an environment makes stale: the flag's page and its row in its project's list (and, proposed, the project's change requests). */
const stale = (at: FlagInEnvironment, propose?: Propose) =>
  [flagKeys.flag(at.feature), projectKeys.flags(at.project), ...(propose ? [changeRequestKeys.project(at.project)] : [])];

const SetEnabled = graphql(`
  mutation FlagPageSetEnabled($input: SetFeatureEnvironmentEnabledInput!) { setFeatureEnvironmentEnabled(input: $input) { name enabled } }
`);

export const useSetEnabled = (at: FlagInEnvironment, propose?: Propose) => useAppMutation({
  mutationFn: (enabled: boolean) => (propose
    ? propose({ action: 'updateEnabled', feature: at.feature, payload: { enabled } })
    : gql(SetEnabled, { input: { ...at, enabled } })),
  invalidates: stale(at, propose),
});

const SortStrategies = graphql(`
  mutation FlagPageSortStrategies($input: SetStrategySortOrderInput!) { setStrategySortOrder(input: $input) { id sortOrder } }
`);

export const useSortStrategies = (at: FlagInEnvironment, propose?: Propose) => useAppMutation({
  mutationFn: (order: Array<{ id: string; sortOrder: number }>) => (propose
    ? propose({ action: 'reorderStrategy', feature: at.feature, payload: order })
    : gql(SortStrategies, { input: { ...at, order } })),
  invalidates: stale(at, propose),
});

const UpdateStrategy = graphql(`
  mutation FlagPageUpdateStrategy($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { id disabled } }
`);

/** Disables or enables one strategy (a proposal carries the whole strategy, as the service's change does). */
export const useSetStrategyDisabled = (at: FlagInEnvironment, strategy: FlagStrategy, propose?: Propose) => useAppMutation({
  mutationFn: (disabled: boolean) => (propose
    ? propose({ action: 'updateStrategy', feature: at.feature, payload: { id: strategy.id, ...strategyPayload(strategy), disabled } })
    : gql(UpdateStrategy, { input: { ...at, id: strategy.id, disabled } })),
  invalidates: stale(at, propose),
});

const DeleteStrategy = graphql(`mutation FlagPageDeleteStrategy($input: DeleteFeatureStrategyInput!) { deleteFeatureStrategy(input: $input) }`);

export const useDeleteStrategy = (at: FlagInEnvironment, propose?: Propose) => useAppMutation({
  mutationFn: (id: string) => (propose
    ? propose({ action: 'deleteStrategy', feature: at.feature, payload: { id } })
    : gql(DeleteStrategy, { input: { ...at, id } })),
  invalidates: stale(at, propose),
});

/** A strategy as the strategy form sends it; with `id` it replaces that strategy, without it is added. */
export type StrategyFields = Omit<AddFeatureStrategyInput, keyof FlagInEnvironment | 'sortOrder'> & { id?: string };

const AddStrategy = graphql(`mutation StrategyFormAdd($input: AddFeatureStrategyInput!) { addFeatureStrategy(input: $input) { id } }`);
const SaveStrategy = graphql(`mutation StrategyFormUpdate($input: UpdateFeatureStrategyInput!) { updateFeatureStrategy(input: $input) { id } }`);

export const useSaveStrategy = (at: FlagInEnvironment, propose?: Propose) => useAppMutation({
  mutationFn: ({ id, ...fields }: StrategyFields): Promise<unknown> => {
    if (propose) return propose(id ? { action: 'updateStrategy', feature: at.feature, payload: { id, ...fields } } : { action: 'addStrategy', feature: at.feature, payload: fields });
    return id ? gql(SaveStrategy, { input: { ...at, ...fields, id } }) : gql(AddStrategy, { input: { ...at, ...fields } });
  },
  invalidates: stale(at, propose),
});

const SetVariants = graphql(`
  mutation FeatureVariantsEditorSet($input: SetFeatureVariantsInput!) { setFeatureVariants(input: $input) { name weight weightType stickiness } }
`);

/** The flag's variants in this environment alone, replaced as a whole. */
export const useSetVariants = (at: FlagInEnvironment, propose?: Propose) => useAppMutation({
  mutationFn: (variants: FeatureVariantInput[]) => (propose
    ? propose({ action: 'patchVariant', feature: at.feature, payload: { variants } })
    : gql(SetVariants, { input: { project: at.project, feature: at.feature, environments: [at.environment], variants } })),
  invalidates: stale(at, propose),
});
