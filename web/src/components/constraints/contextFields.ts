import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';

const ContextFieldsQuery = graphql(`
  query EditorsContextFields {
    contextFields { name description stickiness sortOrder legalValues { value description } }
  }
`);

export interface ContextFieldInfo {
  name: string;
  description?: string | null;
  stickiness: boolean;
  legalValues: Array<{ value: string; description?: string | null }>;
}

/** The context fields constraints, overrides and stickiness can use (shared by the strategy, segment and variant editors). */
export function useContextFields() {
  return useQuery({
    queryKey: ['editors', 'contextFields'],
    queryFn: async (): Promise<ContextFieldInfo[]> => {
      const data = await gql(ContextFieldsQuery);
      return [...data.contextFields].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
    },
    staleTime: 30_000,
  });
}

/** Legal values by context field name (an empty list: any value), as constraint validation wants them. */
export function legalValuesByField(fields: readonly ContextFieldInfo[] | undefined): Map<string, string[]> {
  return new Map((fields ?? []).map((f) => [f.name, f.legalValues.map((v) => v.value)]));
}
