import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';

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

/** Strategy definitions: the built-in ones and custom ones, with their declared parameters. */
export function useStrategyDefinitions() {
  return useQuery({ queryKey: ['editors', 'strategies'], queryFn: async () => (await gql(StrategiesQuery)).strategies, staleTime: 30_000 });
}

/** The segments a strategy of `project` may use: global ones and the project's own. */
export function useSegments(project: string) {
  return useQuery({
    queryKey: ['editors', 'segments'],
    queryFn: async () => (await gql(SegmentsQuery)).segments,
    staleTime: 30_000,
    select: (segments) => segments.filter((s) => s.project === null || s.project === undefined || s.project === project),
  });
}

/** The project's default stickiness (what new rollouts and variants start with); "default" until it is known. */
export function useProjectStickiness(project: string): string {
  const q = useQuery({ queryKey: ['editors', 'projectStickiness', project], queryFn: () => gql(ProjectStickinessQuery, { id: project }), staleTime: 60_000 });
  return q.data?.project.defaultStickiness ?? 'default';
}
