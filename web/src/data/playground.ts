import { useMutation, useQuery } from '@tanstack/react-query';
import { gql } from '../api/client';
import { graphql } from '../gql';
import type { AdvancedPlaygroundInput, PlaygroundInput, PlaygroundResultFeatureFragment } from '../gql/graphql';
import { playgroundKeys } from './keys';

// The playground's documents and hooks. Operation names start with "Playground" (unique across the app).

/** Everything the explanation reads of one evaluated flag; shared by the simple and the advanced results. */
export const PlaygroundResultFeature = graphql(`
  fragment PlaygroundResultFeature on PlaygroundFeature {
    name projectId isEnabled isEnabledInCurrentEnvironment hasUnsatisfiedDependency
    variant { name enabled payload { type value } }
    strategies {
      result
      data {
        id name title disabled parameters
        result { enabled evaluationStatus variant { name enabled } }
        constraints { contextName operator inverted caseInsensitive value values result }
        segments { id name result constraints { contextName operator inverted caseInsensitive value values result } }
      }
    }
  }
`);

const OptionsQuery = graphql(`
  query PlaygroundOptions {
    environments { name enabled }
    projects { id name }
    contextFields { name description legalValues { value description } }
  }
`);

const EvaluateQuery = graphql(`
  query PlaygroundEvaluate($input: PlaygroundInput!) {
    playground(input: $input) { ...PlaygroundResultFeature }
  }
`);

const AdvancedQuery = graphql(`
  query PlaygroundAdvanced($input: AdvancedPlaygroundInput!) {
    advancedPlayground(input: $input) {
      name projectId
      environments { environment entries { context evaluation { ...PlaygroundResultFeature } } }
    }
  }
`);

/** One row of the advanced answer: a flag in one environment for one combination of the context's values. */
export interface AdvancedRow {
  feature: string;
  project: string;
  environment: string;
  context: Record<string, unknown>;
  evaluation: PlaygroundResultFeatureFragment;
}

/** The simple form asks about one environment; the advanced one about several, and every combination of values. */
export type PlaygroundQuestion = { mode: 'simple'; input: PlaygroundInput } | { mode: 'advanced'; input: AdvancedPlaygroundInput };

/** `at`: the instant the flags were evaluated as of (ISO 8601), null for now. */
export type PlaygroundAnswer =
  | { mode: 'simple'; environment: string; features: PlaygroundResultFeatureFragment[]; at: string | null }
  | { mode: 'advanced'; environments: string[]; rows: AdvancedRow[]; at: string | null };

/** What the form offers: the environments, projects and context fields. */
export const usePlaygroundOptions = () => useQuery({ queryKey: playgroundKeys.options(), queryFn: () => gql(OptionsQuery), staleTime: 60_000 });

/**
 * Evaluates a question on demand (nothing is written), as the flags are now or, with `at`, as they were then; the
 * advanced answer is flattened into one row per result.
 */
export const usePlaygroundEvaluation = () => useMutation({
  mutationFn: async (question: PlaygroundQuestion): Promise<PlaygroundAnswer> => {
    if (question.mode === 'simple') {
      const data = await gql(EvaluateQuery, { input: question.input });
      return { mode: 'simple', environment: question.input.environment, features: data.playground, at: question.input.at ?? null };
    }
    const data = await gql(AdvancedQuery, { input: question.input });
    const rows: AdvancedRow[] = data.advancedPlayground.flatMap((f) => f.environments.flatMap((e) => e.entries.map((entry) => ({
      feature: f.name, project: f.projectId, environment: e.environment, context: (entry.context ?? {}) as Record<string, unknown>, evaluation: entry.evaluation,
    }))));
    return { mode: 'advanced', environments: question.input.environments, rows, at: question.input.at ?? null };
  },
});
