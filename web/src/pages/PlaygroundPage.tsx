import { Button, Group, Loader, MultiSelect, Paper, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { gql } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { graphql } from '../gql';
import { combinationsPerFlag, toContextInput, type ContextEntry } from '../logic/playground-context';
import { ContextForm } from './playground/ContextForm';
import { AdvancedResults, SimpleResults, type AdvancedRow } from './playground/Results';

const PlaygroundOptionsQuery = graphql(`
  query PlaygroundOptions {
    environments { name enabled }
    projects { id name }
    contextFields { name description legalValues { value description } }
  }
`);

const PlaygroundEvaluateQuery = graphql(`
  query PlaygroundEvaluate($input: PlaygroundInput!) {
    playground(input: $input) { ...PlaygroundResultFeature }
  }
`);

const PlaygroundAdvancedQuery = graphql(`
  query PlaygroundAdvanced($input: AdvancedPlaygroundInput!) {
    advancedPlayground(input: $input) {
      name projectId
      environments { environment entries { context evaluation { ...PlaygroundResultFeature } } }
    }
  }
`);

// The fields a context usually carries: on the form from the start, removable like any other.
const START_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'currentTime'];

type Answer =
  | { mode: 'simple'; environment: string; features: Parameters<typeof SimpleResults>[0]['features'] }
  | { mode: 'advanced'; environments: string[]; rows: AdvancedRow[] };

/**
 * `/playground`: evaluates a context against the flags of chosen projects in one environment (or, in the advanced
 * form, several environments and every combination of comma-separated values), and shows why each flag came out so.
 */
export default function PlaygroundPage() {
  const options = useQuery({ queryKey: ['playground-options'], queryFn: () => gql(PlaygroundOptionsQuery), staleTime: 60_000 });
  const [advanced, setAdvanced] = useState(false);
  const [environment, setEnvironment] = useState<string | null>(null);
  const [environments, setEnvironments] = useState<string[]>([]);
  const [projects, setProjects] = useState<string[]>([]);
  const [appName, setAppName] = useState('playground');
  const [entries, setEntries] = useState<ContextEntry[]>(START_FIELDS.map((name) => ({ name, value: '' })));

  const evaluate = useMutation({
    mutationFn: async (): Promise<Answer> => {
      const context = toContextInput(appName, entries, advanced);
      const projectList = projects.length ? projects : undefined;
      if (!advanced) {
        const env = environment ?? '';
        const data = await gql(PlaygroundEvaluateQuery, { input: { environment: env, projects: projectList, context } });
        return { mode: 'simple', environment: env, features: data.playground };
      }
      const data = await gql(PlaygroundAdvancedQuery, { input: { environments, projects: projectList, context } });
      const rows: AdvancedRow[] = data.advancedPlayground.flatMap((f) => f.environments.flatMap((e) => e.entries.map((entry) => ({
        feature: f.name, project: f.projectId, environment: e.environment, context: (entry.context ?? {}) as Record<string, unknown>, evaluation: entry.evaluation,
      }))));
      return { mode: 'advanced', environments, rows };
    },
  });

  const envOptions = (options.data?.environments ?? []).filter((e) => e.enabled).map((e) => e.name);
  const projectOptions = (options.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }));
  const perFlag = combinationsPerFlag(Math.max(1, environments.length), appName, entries);
  const ready = appName.trim() !== '' && (advanced ? environments.length > 0 : environment !== null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) evaluate.mutate();
  };

  return (
    <>
      <Title order={1} mb="md">Playground</Title>
      <ErrorNotice error={options.error} />
      <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} aria-label="Playground form" mb="lg">
        <Stack gap="sm">
          <Switch label="Advanced form (several environments, several values per field)" checked={advanced}
            onChange={(e) => { setAdvanced(e.currentTarget.checked); evaluate.reset(); }} />
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {advanced ? (
              <MultiSelect label="Environments" placeholder={environments.length ? undefined : 'Choose environments'} data={envOptions}
                value={environments} onChange={setEnvironments} searchable />
            ) : (
              <Select label="Environment" placeholder="Choose an environment" data={envOptions} value={environment}
                onChange={setEnvironment} searchable />
            )}
            <MultiSelect label="Projects" placeholder={projects.length ? undefined : 'All projects'} data={projectOptions}
              value={projects} onChange={setProjects} searchable clearable />
          </SimpleGrid>
          <Title order={2} size="h4" mt="xs">Context</Title>
          {options.isPending ? <Loader size="sm" aria-label="Loading context fields" /> : (
            <ContextForm fields={options.data?.contextFields ?? []} appName={appName} onAppName={setAppName}
              entries={entries} onEntries={setEntries} advanced={advanced} />
          )}
          <Group justify="flex-end" gap="md">
            {advanced && <Text size="sm" c="dimmed">{perFlag} evaluation{perFlag === 1 ? '' : 's'} per flag</Text>}
            <Button type="submit" disabled={!ready} loading={evaluate.isPending}>Evaluate</Button>
          </Group>
          <ErrorNotice error={evaluate.error} />
        </Stack>
      </Paper>
      <section aria-label="Evaluation results">
        <Title order={2} size="h4" mb="xs">Results</Title>
        {!evaluate.data && !evaluate.isPending && (
          <Text c="dimmed">Choose an environment and a context, then press Evaluate to see which flags the context gets, and why.</Text>
        )}
        {evaluate.data?.mode === 'simple' && <SimpleResults features={evaluate.data.features} environment={evaluate.data.environment} />}
        {evaluate.data?.mode === 'advanced' && <AdvancedResults rows={evaluate.data.rows} environments={evaluate.data.environments} />}
      </section>
    </>
  );
}
