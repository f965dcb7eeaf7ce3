import { graphql } from '../../gql';

// The GraphQL documents of the data pages (export, import, archive, applications). Operation names start with "Data".

export const DataExportQuery = graphql(`
  query DataExport($input: ExportFeaturesInput!) { exportFeatures(input: $input) }
`);

export const DataImportProjectQuery = graphql(`
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

export const DataValidateImportQuery = graphql(`
  query DataValidateImport($input: ImportInput!) {
    validateImport(input: $input) {
      errors { message affectedItems }
      warnings { message affectedItems }
      permissions { message affectedItems }
      changes { ...DataImportChange }
    }
  }
`);

export const DataImportMutation = graphql(`
  mutation DataImport($input: ImportInput!) {
    importFeatures(input: $input) {
      warnings { message affectedItems }
      changes { ...DataImportChange }
    }
  }
`);

export const DataArchiveQuery = graphql(`
  query DataArchive($first: Int!, $after: String, $filter: FeatureFilter) {
    features(first: $first, after: $after, filter: $filter) {
      nodes { name project type description archivedAt }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const DataReviveMutation = graphql(`
  mutation DataRevive($input: FeatureNamesInput!) { reviveFeatures(input: $input) }
`);

export const DataDeleteMutation = graphql(`
  mutation DataDelete($input: FeatureNamesInput!) { deleteFeatures(input: $input) }
`);

export const DataApplicationsQuery = graphql(`
  query DataApplications {
    applications {
      appName description color url strategies lastSeen
      instances { instanceId sdkVersion environment }
    }
  }
`);

export const DataApplicationQuery = graphql(`
  query DataApplication($appName: String!) {
    application(appName: $appName) {
      appName description color url icon strategies lastSeen createdAt createdBy
      usage { project environments }
      instances { instanceId environment sdkVersion clientIp started lastSeen interval }
      seenFeatures { name project archived }
    }
  }
`);

export const DataUpdateApplicationMutation = graphql(`
  mutation DataUpdateApplication($input: UpdateApplicationInput!) { updateApplication(input: $input) { appName description url color } }
`);

export const DataDeleteApplicationMutation = graphql(`
  mutation DataDeleteApplication($input: ApplicationNameInput!) { deleteApplication(input: $input) }
`);
