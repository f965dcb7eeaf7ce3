import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { definitionKeys } from '../keys';

// What the flag's editors offer (constraint, strategy, variant and segment pickers). Operation names as they were.

const ContextFieldsQuery = graphql(`
  query EditorsContextFields {
    contextFields { name description stickiness sortOrder legalValues { value description } }
  }
`);
const StrategiesQuery = graphql(`
  query StrategyFormStrategies {
    strategies { name displayName description deprecated parameters { name type required description } }
  }
`);
const SegmentsQuery = graphql(`
  query StrategyFormSegments {
    segments { id name description project }
  }
`);
const ProjectStickinessQuery = graphql(`
  query EditorsProjectStickiness($id: String!) {
    project(id: $id) { id defaultStickiness }
  }
`);

export interface ContextFieldInfo {
  name: string;
  description?: string | null;
  stickiness: boolean;
  legalValues: Array<{ value: string; description?: string | null }>;
}

/** The context fields constraints, overrides and stickiness can use, in their sort order (then by name). */
export function useContextFields() {
  return useQuery({
    queryKey: definitionKeys.editorContextFields(),
    queryFn: async (): Promise<ContextFieldInfo[]> => {
      const data = await gql(ContextFieldsQuery);
      return [...data.contextFields].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
    },
    staleTime: 30_000,
  });
}

/** Strategy definitions: the built-in ones and custom ones, with their declared parameters. */
export function useStrategyDefinitions() {
  return useQuery({ queryKey: definitionKeys.editorStrategies(), queryFn: async () => (await gql(StrategiesQuery)).strategies, staleTime: 30_000 });
}

/** The segments a strategy of `project` may use: global ones and the project's own. */
export function useSegments(project: string) {
  return useQuery({
    queryKey: definitionKeys.editorSegments(),
    queryFn: async () => (await gql(SegmentsQuery)).segments,
    staleTime: 30_000,
    select: (segments) => segments.filter((s) => s.project === null || s.project === undefined || s.project === project),
  });
}

/** The project's default stickiness (what new rollouts and variants start with); "default" until it is known. */
export function useProjectStickiness(project: string): string {
  const q = useQuery({
    queryKey: definitionKeys.editorStickiness(project),
    queryFn: () => gql(ProjectStickinessQuery, { id: project }),
    staleTime: 60_000,
  });
  return q.data?.project.defaultStickiness ?? 'default';
}
