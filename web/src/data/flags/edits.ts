import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { UpdateFeatureInput } from '../../gql/graphql';
import { dataKeys, flagKeys, projectKeys } from '../keys';
import { useAppMutation } from '../mutation';

// Changes to a flag as a whole: its details, tags and dependencies, cloning, archiving and reviving. Each hook sits
// under the document it sends; operation names as before ("FlagPage…").

/** A flag as these hooks name it. */
export interface FlagRef {
  name: string;
  project: string;
}

/** What a change of a flag makes stale: its page (its events included) and its row in its project's list. */
const flagStale = (flag: FlagRef) => [flagKeys.flag(flag.name), projectKeys.flags(flag.project)];
/** A flag that comes or goes also changes the project's counts and health, and the dependency picker. */
const listStale = (project: string) => [projectKeys.flags(project), projectKeys.list(), flagKeys.projectFlagNames(project)];

const UpdateFeature = graphql(`mutation FlagPageUpdateFeature($input: UpdateFeatureInput!) { updateFeature(input: $input) { name } }`);

/** Description, type or impression data, each sent on its own. */
export const useUpdateFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: (details: Omit<UpdateFeatureInput, 'project' | 'feature' | 'stale'>) =>
    gql(UpdateFeature, { input: { project: flag.project, feature: flag.name, ...details } }),
  invalidates: flagStale(flag),
});

const SetStale = graphql(`mutation FlagPageSetStale($input: SetFeatureStaleInput!) { setFeaturesStale(input: $input) }`);

/** Marks the flag stale or not (which the project's health counts). */
export const useSetFlagStale = (flag: FlagRef) => useAppMutation({
  mutationFn: (stale: boolean) => gql(SetStale, { input: { project: flag.project, features: [flag.name], stale } }),
  invalidates: [...flagStale(flag), projectKeys.list()],
});

interface TagValue {
  type: string;
  value: string;
}

const Tag = graphql(`mutation FlagPageTag($input: FeatureTagInput!) { tagFeature(input: $input) { type value } }`);

export const useTagFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: (tag: TagValue) => gql(Tag, { input: { feature: flag.name, ...tag } }),
  invalidates: flagStale(flag),
});

const Untag = graphql(`mutation FlagPageUntag($input: FeatureTagInput!) { untagFeature(input: $input) }`);

export const useUntagFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: (tag: TagValue) => gql(Untag, { input: { feature: flag.name, ...tag } }),
  invalidates: flagStale(flag),
});

export interface NewDependency {
  parent: string;
  enabled: boolean;
  /** Variants the parent must resolve to (only when it must be enabled). */
  variants: string[];
}

const AddDependency = graphql(`mutation FlagPageAddDependency($input: AddFeatureDependencyInput!) { addFeatureDependency(input: $input) { name } }`);

/** A dependency on a parent flag: the parent's page lists its children, so it is stale too. */
export const useAddDependency = (flag: FlagRef) => useAppMutation({
  mutationFn: ({ parent, enabled, variants }: NewDependency) => gql(AddDependency, {
    input: { project: flag.project, feature: flag.name, parent, enabled, ...(enabled && variants.length ? { variants } : {}) },
  }),
  invalidates: (v) => [...flagStale(flag), flagKeys.flag(v.parent)],
});

const RemoveDependency = graphql(`
  mutation FlagPageRemoveDependency($input: RemoveFeatureDependencyInput!) { removeFeatureDependency(input: $input) { name } }
`);

export const useRemoveDependency = (flag: FlagRef) => useAppMutation({
  mutationFn: (parent: string) => gql(RemoveDependency, { input: { project: flag.project, feature: flag.name, parent } }),
  invalidates: (parent) => [...flagStale(flag), flagKeys.flag(parent)],
});

const Clone = graphql(`mutation FlagPageClone($input: CloneFeatureInput!) { cloneFeature(input: $input) { name project } }`);

/** A copy of the flag in its project; the answer names the copy (the page opens it). */
export const useCloneFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: (copy: { name: string; replaceGroupId: boolean }) =>
    gql(Clone, { input: { project: flag.project, feature: flag.name, ...copy } }).then((r) => r.cloneFeature),
  invalidates: listStale(flag.project),
});

/** Archiving and reviving move the flag between its project's list and the archive. */
const lifecycleStale = (flag: FlagRef) => [flagKeys.flag(flag.name), ...listStale(flag.project), dataKeys.archiveAll()];

const Archive = graphql(`mutation FlagPageArchive($input: FeatureNamesInput!) { archiveFeatures(input: $input) }`);

export const useArchiveFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: () => gql(Archive, { input: { project: flag.project, features: [flag.name] } }),
  invalidates: lifecycleStale(flag),
});

const Revive = graphql(`mutation FlagPageRevive($input: FeatureNamesInput!) { reviveFeatures(input: $input) }`);

export const useReviveFlag = (flag: FlagRef) => useAppMutation({
  mutationFn: () => gql(Revive, { input: { project: flag.project, features: [flag.name] } }),
  invalidates: lifecycleStale(flag),
});
