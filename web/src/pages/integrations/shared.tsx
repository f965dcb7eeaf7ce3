import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import { relativeTime } from '../../logic/flag-list';

/** The projects and environments the token and addon forms offer (one query, one cache key, for both pages). */
const ScopesQuery = graphql(`
  query IntegrationsScopes {
    projects { id name }
    environments { name enabled sortOrder }
  }
`);

export function useScopes() {
  const query = useQuery({ queryKey: ['integrations', 'scopes'], queryFn: () => gql(ScopesQuery), staleTime: 30_000 });
  const projects = (query.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }));
  const environments = [...(query.data?.environments ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name))
    .map((e) => ({ value: e.name, label: e.enabled ? e.name : `${e.name} (disabled)` }));
  return { projects, environments, error: query.error, pending: query.isPending };
}

/** A point in time as "3 minutes ago", the exact local time on hover; "never" (dimmed) for none. */
export function When({ iso, never = 'never' }: { iso: string | null | undefined; never?: string }) {
  if (!iso) return <Text span size="sm" c="dimmed">{never}</Text>;
  return <time dateTime={iso} title={new Date(iso).toLocaleString()}>{relativeTime(iso)}</time>;
}

