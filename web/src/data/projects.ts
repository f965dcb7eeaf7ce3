import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { CreateFeatureInput, CreateProjectInput, ProjectFlagsRowFragment, UpdateChangeRequestConfigInput } from '../gql/graphql';
import { changeRequestKeys, dataKeys, definitionKeys, eventKeys, flagKeys, integrationKeys, playgroundKeys, projectKeys } from './keys';
import { useAppMutation } from './mutation';
import { allowedQuery } from './session';

// Projects: the list, a project's flags (its main page, with a switch per environment) and its settings. Each hook sits
// under the document it sends; operation names as before ("Projects…", "ProjectFlags…", "ProjectSettings…").

// ---- the list ---------------------------------------------------------------------------------------------------

const ProjectsQuery = graphql(`query Projects { projects { id name description health featureCount memberCount } }`);

/** The projects; `enabled` false reads nothing yet (the command palette before it opens). */
export const useProjects = (enabled = true) => useQuery({ queryKey: projectKeys.list(), queryFn: () => gql(ProjectsQuery), enabled });

/** What a project's coming or renaming makes stale: every list that offers projects by name. */
const projectNamesStale = () => [projectKeys.list(), playgroundKeys.options(), eventKeys.filters(), integrationKeys.scopes(), definitionKeys.segmentProjects()];

const CreateProject = graphql(`mutation ProjectsCreateProject($input: CreateProjectInput!) { createProject(input: $input) { id name } }`);

export const useCreateProject = () => useAppMutation({
  mutationFn: (input: CreateProjectInput) => gql(CreateProject, { input }),
  invalidates: projectNamesStale(),
});

// ---- a project's flags ------------------------------------------------------------------------------------------

/** The service's largest page: a project of up to 1000 flags comes in one request. */
const PAGE = 1000;

// Each row's sparkline comes with it: its last 24 hours of evaluations, one statement for the whole page (Feature.exposure).
graphql(`
  fragment ProjectFlagsRow on Feature {
    name type description stale createdAt
    tags { type value }
    environments { name enabled lastSeenAt }
    lifecycle { stage }
    exposure(hoursBack: 24) { totals }
  }
`);

// The page, its environments, their change-request settings and the feature types in one request with the first page.
const ProjectFlagsQuery = graphql(`
  query ProjectFlags($id: String!, $first: Int!) {
    project(id: $id) {
      id name description
      featureNaming { pattern example description }
      environments { environment }
      lifecycleCounts { discardedWithTraffic }
      features(first: $first) { nodes { ...ProjectFlagsRow } pageInfo { hasNextPage endCursor } }
    }
    changeRequestConfig(project: $id) { environment changeRequestsEnabled }
    featureTypes { id name }
  }
`);
const ProjectFlagsMoreQuery = graphql(`
  query ProjectFlagsMore($id: String!, $first: Int!, $after: String) {
    project(id: $id) { features(first: $first, after: $after) { nodes { ...ProjectFlagsRow } pageInfo { hasNextPage endCursor } } }
  }
`);

export type ProjectFlag = ProjectFlagsRowFragment;

/** The first page with the page's other data, then any further pages (a project beyond the service's page size). */
async function loadFlags(id: string) {
  const first = await gql(ProjectFlagsQuery, { id, first: PAGE });
  const flags: ProjectFlag[] = [...first.project.features.nodes];
  let page = first.project.features.pageInfo;
  while (page.hasNextPage && page.endCursor) {
    const more = await gql(ProjectFlagsMoreQuery, { id, first: PAGE, after: page.endCursor });
    flags.push(...more.project.features.nodes);
    page = more.project.features.pageInfo;
  }
  return { ...first, flags };
}
type ProjectFlags = Awaited<ReturnType<typeof loadFlags>>;

export const useProjectFlags = (project: string) => useQuery({ queryKey: projectKeys.flags(project), queryFn: () => loadFlags(project), staleTime: 10_000 });

/** What the user may do with the flags of one environment, as the service says (false until it has answered). */
export interface EnvironmentPermissions {
  /** Switch flags on and off (UPDATE_FEATURE_ENVIRONMENT). */
  switch: boolean;
  /** Change flags directly where change requests guard the environment (SKIP_CHANGE_REQUEST). */
  skipChangeRequests: boolean;
}

/**
 * The permissions of each environment of a project, one `me.allowed` question each (shared with useAllowed's cache).
 * The result keeps its identity while the answers do not change (the query's combine is structurally shared), so the
 * list's memoised rows do not re-render when a question is merely asked again.
 */
export function useEnvironmentPermissions(project: string, environments: readonly string[]): Record<string, EnvironmentPermissions> {
  return useQueries({
    queries: environments.map((environment) => allowedQuery(project, environment)),
    combine: (answers) => Object.fromEntries(environments.map((environment, i) => {
      const held = answers[i]?.data?.me.allowed ?? [];
      return [environment, { switch: held.includes('UPDATE_FEATURE_ENVIRONMENT'), skipChangeRequests: held.includes('SKIP_CHANGE_REQUEST') }];
    })),
  });
}

export interface FlagSwitch {
  flag: string;
  environment: string;
  enabled: boolean;
}

const setEnabledIn = (data: ProjectFlags | undefined, { flag, environment, enabled }: FlagSwitch): ProjectFlags | undefined =>
  data && {
    ...data,
    flags: data.flags.map((f) => (f.name !== flag ? f : { ...f, environments: f.environments.map((e) => (e.name === environment ? { ...e, enabled } : e)) })),
  };

const SetEnabled = graphql(`
  mutation ProjectFlagsSetEnabled($input: SetFeatureEnvironmentEnabledInput!) { setFeatureEnvironmentEnabled(input: $input) { featureName name enabled } }
`);

/**
 * A switch of the list, shown at once (optimistic) and then as the service answered; a refusal puts back what it was,
 * for that flag and environment only (other switches may be on their way). The list itself is not read again: the
 * answer says all there is to know, and a project of 1000 flags is a large read.
 */
export function useSwitchFlag(project: string) {
  const client = useQueryClient();
  const queryKey = projectKeys.flags(project);
  const write = (v: FlagSwitch) => client.setQueryData<ProjectFlags>(queryKey, (d) => setEnabledIn(d, v));
  return useAppMutation({
    mutationFn: (v: FlagSwitch) => gql(SetEnabled, { input: { project, feature: v.flag, environment: v.environment, enabled: v.enabled } }),
    onMutate: async (v) => {
      await client.cancelQueries({ queryKey });
      write(v);
    },
    onSuccess: (r, v) => write({ ...v, enabled: r.setFeatureEnvironmentEnabled.enabled }),
    onError: (_error, v) => write({ ...v, enabled: !v.enabled }),
    invalidates: (v) => [flagKeys.flag(v.flag)],
  });
}

const CreateFeature = graphql(`mutation ProjectFlagsCreateFeature($input: CreateFeatureInput!) { createFeature(input: $input) { name project } }`);

/** A new flag of the project; the answer names it (the page opens it). */
export const useCreateFlag = (project: string) => useAppMutation({
  mutationFn: (input: Omit<CreateFeatureInput, 'project'>) => gql(CreateFeature, { input: { project, ...input } }).then((r) => r.createFeature),
  invalidates: [projectKeys.flags(project), projectKeys.list(), flagKeys.projectFlagNames(project), flagKeys.everyFlag(), dataKeys.unknownFlags()],
});

// ---- a project's settings ---------------------------------------------------------------------------------------

const SettingsQuery = graphql(`
  query ProjectSettings($project: String!) {
    project(id: $project) { id name description }
    changeRequestConfig(project: $project) { environment type changeRequestsEnabled requiredApprovals }
  }
`);

export const useProjectSettings = (project: string) => useQuery({ queryKey: projectKeys.settings(project), queryFn: () => gql(SettingsQuery, { project }) });

const UpdateConfig = graphql(`
  mutation ProjectSettingsUpdateChangeRequests($input: UpdateChangeRequestConfigInput!) {
    updateChangeRequestConfig(input: $input) { environment changeRequestsEnabled requiredApprovals }
  }
`);

/** Whether an environment needs change requests, and how many approvals: the flag pages and the list read it too. */
export const useUpdateChangeRequestConfig = (project: string) => useAppMutation({
  mutationFn: (input: Omit<UpdateChangeRequestConfigInput, 'project'>) => gql(UpdateConfig, { input: { project, ...input } }).then((r) => r.updateChangeRequestConfig),
  invalidates: [projectKeys.settings(project), changeRequestKeys.config(project), projectKeys.flags(project)],
  done: (c) => ({ title: `Saved for ${c.environment}`, message: c.changeRequestsEnabled ? `Change requests on, ${c.requiredApprovals} approval(s).` : 'Change requests off.' }),
});

const UpdateProject = graphql(`mutation ProjectSettingsUpdateProject($input: UpdateProjectInput!) { updateProject(input: $input) { id name description } }`);

export const useUpdateProject = (project: string) => useAppMutation({
  mutationFn: (details: { name: string; description: string }) => gql(UpdateProject, { input: { id: project, ...details } }).then((r) => r.updateProject),
  invalidates: [projectKeys.settings(project), projectKeys.flags(project), ...projectNamesStale()],
  done: (p) => ({ title: 'Project saved', message: `${p.name} was updated.` }),
});
