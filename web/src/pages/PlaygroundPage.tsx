import { Alert, Button, Group, Loader, MultiSelect, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { usePlaygroundEvaluation, usePlaygroundOptions } from '../data/playground';
import { asOfInstant } from '../logic/as-of';
import { combinationsPerFlag, toContextInput, type ContextEntry } from '../logic/playground-context';
import { rememberedEnvironment, rememberEnvironment, startEnvironment } from '../logic/playground-environment';
import { ContextForm } from './playground/ContextForm';
import { AdvancedResults, SimpleResults } from './playground/Results';

// The fields a context usually carries: on the form from the start, removable like any other.
const START_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'currentTime'];

/**
 * `/playground`: evaluates a context against the flags of chosen projects in one environment (or, in the advanced
 * form, several environments and every combination of comma-separated values), and shows why each flag came out so;
 * with "As of" set, the flags are evaluated as they were at that instant. It starts on an environment, ready to
 * evaluate: the one of the last evaluation in this browser while it is enabled, else the first enabled one.
 */
export default function PlaygroundPage() {
  const options = usePlaygroundOptions();
  const [advanced, setAdvanced] = useState(false);
  // null: not chosen on this page yet, the start environment (or, in the advanced form, the simple form's) stands.
  const [chosenEnvironment, setEnvironment] = useState<string | null>(null);
  const [chosenEnvironments, setEnvironments] = useState<string[] | null>(null);
  const [remembered] = useState(rememberedEnvironment);
  const [projects, setProjects] = useState<string[]>([]);
  const [appName, setAppName] = useState('playground');
  const [entries, setEntries] = useState<ContextEntry[]>(START_FIELDS.map((name) => ({ name, value: '' })));
  const [asOfText, setAsOfText] = useState('');
  const asOf = asOfInstant(asOfText);

  const evaluate = usePlaygroundEvaluation();

  const envOptions = (options.data?.environments ?? []).filter((e) => e.enabled).map((e) => e.name);
  const environment = chosenEnvironment ?? startEnvironment(envOptions, remembered);
  const environments = chosenEnvironments ?? (environment === null ? [] : [environment]);
  const projectOptions = (options.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }));
  const perFlag = combinationsPerFlag(Math.max(1, environments.length), appName, entries);
  const ready = appName.trim() !== '' && asOf.ok && (advanced ? environments.length > 0 : environment !== null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    const context = toContextInput(appName, entries, advanced);
    const projectList = projects.length ? projects : undefined;
    const at = asOf.ok && asOf.iso ? { at: asOf.iso } : {};
    if (!advanced && environment !== null) rememberEnvironment(environment);
    evaluate.mutate(advanced
      ? { mode: 'advanced', input: { environments, projects: projectList, context, ...at } }
      : { mode: 'simple', input: { environment: environment ?? '', projects: projectList, context, ...at } });
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
                onChange={setEnvironment} searchable allowDeselect={false} />
            )}
            <MultiSelect label="Projects" placeholder={projects.length ? undefined : 'All projects'} data={projectOptions}
              value={projects} onChange={setProjects} searchable clearable />
            <TextInput label="As of" placeholder="Now" value={asOfText} onChange={(e) => setAsOfText(e.currentTarget.value)}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              description="The flags as they were then: 2030-01-02 13:45 (your local time) or ISO 8601 with its offset; blank for now"
              error={asOf.ok ? undefined : asOf.error} />
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
        {evaluate.data?.at && (
          <Alert color="orange" variant="light" role="note" mb="xs" title="Evaluated as of an instant">
            These are the flags as they were at <time dateTime={evaluate.data.at}>{new Date(evaluate.data.at).toLocaleString()}</time> ({evaluate.data.at}).
          </Alert>
        )}
        {!evaluate.data && !evaluate.isPending && (
          <Text c="dimmed">Choose an environment and a context, then press Evaluate to see which flags the context gets, and why.</Text>
        )}
        {evaluate.data?.mode === 'simple' && <SimpleResults features={evaluate.data.features} environment={evaluate.data.environment} />}
        {evaluate.data?.mode === 'advanced' && <AdvancedResults rows={evaluate.data.rows} environments={evaluate.data.environments} />}
      </section>
    </>
  );
}
