import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { DataApplicationQuery, FeatureNamesInput, ImportInput, PermissionName } from '../gql/graphql';
import { exportInput, type ExportScope } from '../logic/import-export';
import { byProject } from '../logic/selection';
import { dataKeys, flagKeys, projectKeys } from './keys';
import { useAppMutation } from './mutation';
import { allowedQuery } from './session';

// The data pages' documents and hooks: SDK applications, the archive, export and import. Operation names start with
// "Data" (unique across the app).

// ---- applications -------------------------------------------------------------------------------------------

const ApplicationsQuery = graphql(`
  query DataApplications {
    applications {
      appName description color url strategies lastSeen
      instances { instanceId sdkVersion environment }
    }
  }
`);

const ApplicationQuery = graphql(`
  query DataApplication($appName: String!) {
    application(appName: $appName) {
      appName description color url icon strategies lastSeen createdAt createdBy
      usage { project environments }
      instances { instanceId environment sdkVersion clientIp started lastSeen interval }
      seenFeatures { name project archived }
    }
  }
`);

const UpdateApplication = graphql(`
  mutation DataUpdateApplication($input: UpdateApplicationInput!) { updateApplication(input: $input) { appName description url color } }
`);

const DeleteApplication = graphql(`
  mutation DataDeleteApplication($input: ApplicationNameInput!) { deleteApplication(input: $input) }
`);

// SDKs report on their own: the lists are read again every minute while shown.
export const useApplications = () =>
  useQuery({ queryKey: dataKeys.applications(), queryFn: () => gql(ApplicationsQuery), refetchInterval: 60_000 });

export const useApplication = (appName: string) =>
  useQuery({ queryKey: dataKeys.application(appName), queryFn: () => gql(ApplicationQuery, { appName }), refetchInterval: 60_000 });

/** What an admin sets of an application; an emptied field is sent as null, which the service stores as "not set". */
export type ApplicationDetailsValues = {
  description: string;
  url: string;
  color: string;
};

/**
 * Saves what an admin sets. The answer holds every field the change touched, so the application's page takes it at
 * once (nothing else of it moved); the list is read again.
 */
export function useUpdateApplication(appName: string) {
  const client = useQueryClient();
  return useAppMutation({
    mutationFn: ({ description, url, color }: ApplicationDetailsValues) => gql(UpdateApplication, {
      input: { appName, description: description.trim() || null, url: url.trim() || null, color: color.trim() || null },
    }),
    onSuccess: ({ updateApplication: saved }) => client.setQueryData(dataKeys.application(appName),
      (old: DataApplicationQuery | undefined) => old && { application: { ...old.application, ...saved } }),
    invalidates: [dataKeys.applications()],
    done: `${appName} saved.`,
  });
}

/**
 * Deletes an application (its next report brings it back). Its page is dropped from the cache rather than read again
 * (it is gone), and `onDeleted` (leaving that page) runs at once.
 */
export function useDeleteApplication(onDeleted: () => void) {
  const client = useQueryClient();
  return useAppMutation({
    mutationFn: (appName: string) => gql(DeleteApplication, { input: { appName } }),
    onSuccess: (_r, appName) => {
      client.removeQueries({ queryKey: dataKeys.application(appName) });
      onDeleted();
    },
    invalidates: [dataKeys.applications()],
    done: (_r, appName) => `${appName} deleted.`,
  });
}

// ---- the archive ----------------------------------------------------------------------------------------------

const ArchiveQuery = graphql(`
  query DataArchive($first: Int!, $after: String, $filter: FeatureFilter) {
    features(first: $first, after: $after, filter: $filter) {
      nodes { name project type description archivedAt }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const Revive = graphql(`
  mutation DataRevive($input: FeatureNamesInput!) { reviveFeatures(input: $input) }
`);

const Delete = graphql(`
  mutation DataDelete($input: FeatureNamesInput!) { deleteFeatures(input: $input) }
`);

/** Rows per page: the archive may hold thousands of flags, so it is read a page at a time. */
const ARCHIVE_PAGE = 100;

/** Archived flags of every project whose name contains `query`, a page at a time. */
export const useArchive = (query: string) => useInfiniteQuery({
  queryKey: dataKeys.archive(query),
  queryFn: ({ pageParam }) => gql(ArchiveQuery, { first: ARCHIVE_PAGE, after: pageParam, filter: { archived: true, ...(query ? { query } : {}) } }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => (last.features.pageInfo.hasNextPage ? last.features.pageInfo.endCursor ?? null : null),
  // The rows stay while a new search loads: ticked boxes do not vanish under the pointer.
  placeholderData: keepPreviousData,
});

/** Whether the user holds a permission in each of these projects (false until the service has answered). */
export function useProjectPermissions(projects: readonly string[]) {
  const allowed = useQueries({ queries: projects.map((p) => allowedQuery(p)) });
  return (project: string, permission: PermissionName) => !!allowed[projects.indexOf(project)]?.data?.me.allowed.includes(permission);
}

export interface ArchivedFlag {
  name: string;
  project: string;
}

const flagsDone = (verb: string, flags: readonly ArchivedFlag[]) => `${verb} ${flags.length === 1 ? flags[0].name : `${flags.length} flags`}.`;

/**
 * A revive or delete of archived flags. The service takes one project per call, each all or nothing for its project;
 * part of a selection may have gone through before a refusal, so the archive, the projects' flag lists and the flags'
 * pages are read again either way. `onDone` is the page's follow-up (the confirmation of a delete cannot pass one).
 */
function useArchiveChange<F extends ArchivedFlag>(send: (input: FeatureNamesInput) => Promise<unknown>, verb: string, onDone?: (flags: F[]) => void) {
  return useAppMutation({
    mutationFn: async (flags: F[]) => {
      for (const group of byProject(flags, new Set(flags.map((f) => f.name)))) await send(group);
    },
    onSuccess: (_r, flags) => onDone?.(flags),
    invalidates: (flags) => [
      dataKeys.archiveAll(),
      ...[...new Set(flags.map((f) => f.project))].map((p) => projectKeys.flags(p)),
      ...flags.map((f) => flagKeys.flag(f.name)),
    ],
    done: (_r, flags) => flagsDone(verb, flags),
  });
}

/** Revives archived flags (switched off everywhere). */
export const useReviveFlags = <F extends ArchivedFlag>(onDone?: (flags: F[]) => void) => useArchiveChange((input) => gql(Revive, { input }), 'Revived', onDone);
/** Deletes archived flags for good. */
export const useDeleteFlags = <F extends ArchivedFlag>(onDone?: (flags: F[]) => void) => useArchiveChange((input) => gql(Delete, { input }), 'Deleted', onDone);

// ---- export and import ----------------------------------------------------------------------------------------

const ExportQuery = graphql(`
  query DataExport($input: ExportFeaturesInput!) { exportFeatures(input: $input) }
`);

const ImportProjectQuery = graphql(`
  query DataImportProject($id: String!) {
    project(id: $id) { id name environments { environment } }
  }
`);

graphql(`
  fragment DataImportChange on FeatureImportChange {
    feature action
    fields { field before after }
    enabled { before after }
    strategies {
      added { name title disabled parameters segments constraints { contextName operator values value caseInsensitive inverted } variants { name } }
      removed { name title disabled parameters segmentIds constraints { contextName operator values value caseInsensitive inverted } variants { name } }
    }
    variants { before { name weight } after { name weight } }
    tags { added { type value } removed { type value } }
    dependencies { added { feature enabled variants } removed { feature enabled variants } }
  }
`);

const ValidateImportQuery = graphql(`
  query DataValidateImport($input: ImportInput!) {
    validateImport(input: $input) {
      errors { message affectedItems }
      warnings { message affectedItems }
      permissions { message affectedItems }
      changes { ...DataImportChange }
    }
  }
`);

const ImportMutation = graphql(`
  mutation DataImport($input: ImportInput!) {
    importFeatures(input: $input) {
      warnings { message affectedItems }
      changes { ...DataImportChange }
    }
  }
`);

/** An export of a project (or some of its flags) from one environment, asked for on demand (no flag changes). */
export const useExport = () => useMutation({
  mutationFn: ({ scope, environment }: { scope: ExportScope; environment: string }) => gql(ExportQuery, { input: exportInput(scope, environment) }),
});

/** The project an import goes into, with its environments. */
export const useImportTarget = (project: string) =>
  useQuery({ queryKey: projectKeys.importTarget(project), queryFn: () => gql(ImportProjectQuery, { id: project }) });

type ImportQuestion = Omit<ImportInput, 'project'>;

/** What importing would change, asked on demand: the service validates and writes nothing. */
export const useValidateImport = (project: string) => useMutation({
  mutationFn: (input: ImportQuestion) => gql(ValidateImportQuery, { input: { project, ...input } }),
});

/** The import itself: the project's flag list and each imported flag's page are read again. */
export const useImport = (project: string) => useAppMutation({
  mutationFn: (input: ImportQuestion) => gql(ImportMutation, { input: { project, ...input } }),
  invalidates: (_v, r) => [projectKeys.flags(project), ...(r?.importFeatures.changes ?? []).map((c) => flagKeys.flag(c.feature))],
  done: (r, v) => `Imported ${r.importFeatures.changes.length} flag(s) into ${project} (${v.environment}).`,
});

// ---- unknown flags (issue 44) -----------------------------------------------------------------------------------

const UnknownFlagsQuery = graphql(`
  query DataUnknownFlags {
    unknownFlags { name appName environment seenAt }
    projects { id name }
    featureTypes { id name }
  }
`);

/** Names SDKs report that no flag has, with the projects and types "Create this flag" offers; read every minute while shown. */
export const useUnknownFlags = () =>
  useQuery({ queryKey: dataKeys.unknownFlags(), queryFn: () => gql(UnknownFlagsQuery), refetchInterval: 60_000 });
