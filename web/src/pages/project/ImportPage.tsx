import { Alert, Button, FileInput, Group, Loader, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { useImport, useImportTarget, useValidateImport } from '../../data/data';
import { actionCounts, parseImportText } from '../../logic/import-export';
import { links } from '../../routing/links';
import { ImportDiff, ImportItems } from '../data/ImportDiff';

/** The largest file read into the page: the service's default import body limit is 500 kB, so larger is refused anyway. */
const MAX_FILE = 5 * 1024 * 1024;

/**
 * `/projects/:projectId/import`: an export (uploaded or pasted) validated against this project and one environment
 * by the service (errors, warnings, missing permissions, and per flag what would change), then imported as validated.
 * Changing the text or the environment asks for a new validation, so what is imported is what was shown.
 */
export default function ImportPage() {
  const projectId = useParams().projectId ?? '';
  const project = useImportTarget(projectId);
  const environments = useMemo(() => project.data?.project.environments.map((e) => e.environment) ?? [], [project.data]);

  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [environment, setEnvironment] = useState<string | null>(null);
  useEffect(() => {
    if (environment === null && environments.length) setEnvironment(environments[0]);
  }, [environment, environments]);

  const parsed = useMemo(() => parseImportText(text), [text]);
  const validate = useValidateImport(projectId);
  const run = useImport(projectId);
  const resetValidation = validate.reset;
  const resetRun = run.reset;
  // A new text or environment is a new question: the previous answer (and import) no longer applies.
  useEffect(() => {
    resetValidation();
    resetRun();
  }, [text, environment, resetValidation, resetRun]);

  const readFile = (f: File | null) => {
    setFile(f);
    setFileError(null);
    if (!f) return;
    if (f.size > MAX_FILE) {
      setFileError(`${f.name} is ${Math.round(f.size / 1024)} kB: an import is at most ${MAX_FILE / 1024 / 1024} MB.`);
      return;
    }
    f.text().then(setText, (e: unknown) => setFileError(`${f.name} could not be read: ${e instanceof Error ? e.message : String(e)}`));
  };

  const report = validate.data?.validateImport;
  const importable = !!report && report.errors.length === 0 && report.permissions.length === 0;
  const imported = run.data?.importFeatures;
  const projectPath = links.project(projectId);

  return (
    <>
      <Title order={1}>Import into {project.data?.project.name ?? projectId}</Title>
      <Text c="dimmed" size="sm" mb="xs">{projectId}</Text>
      <ProjectNav projectId={projectId} />
      <ErrorNotice error={project.error} />
      {project.isPending && <Loader aria-label="Loading the project" />}
      {project.data && (
        <Stack gap="md" maw={960}>
          <Text size="sm">
            Upload or paste an export (from a flag list&apos;s Export, or the export API). The service checks it against this project first and shows what
            importing would change; nothing is written until you import.
          </Text>
          <FileInput label="Export file" description="A .json file, as the Export dialog downloads it." accept="application/json,.json" value={file} onChange={readFile} clearable clearButtonProps={{ 'aria-label': 'Clear the file' }}
            error={fileError} />
          <Textarea label="Export JSON" description="The file's content appears here; you may also paste an export." value={text}
            onChange={(e) => { setText(e.currentTarget.value); setFile(null); }} autosize minRows={6} maxRows={18}
            error={text.trim() && !parsed.ok ? parsed.error : undefined}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} />
          {parsed.ok && <Text size="sm" c="dimmed">{parsed.features.length} flag(s) in the export: {parsed.features.slice(0, 20).join(', ')}{parsed.features.length > 20 ? ', …' : ''}</Text>}
          <Group align="flex-end">
            <Select label="Environment" description="Where the strategies, switch and variants go." data={environments} value={environment}
              onChange={setEnvironment} allowDeselect={false} w={260} />
            <Button onClick={() => parsed.ok && environment && validate.mutate({ data: parsed.data, environment })} loading={validate.isPending}
              disabled={!parsed.ok || !environment}>
              Validate
            </Button>
          </Group>
          <ErrorNotice error={validate.error} />

          {report && validate.variables && !imported && (
            <Stack gap="sm" aria-live="polite">
              <Title order={2} size="h3">Validation</Title>
              <Text size="sm">{actionCounts(report.changes)} in {projectId} ({validate.variables.environment}).</Text>
              <ImportItems title="Errors: the import is refused" items={report.errors} color="red" />
              <ImportItems title="Missing permissions" items={report.permissions} color="red" />
              <ImportItems title="Warnings" items={report.warnings} color="yellow" />
              {report.changes.length > 0 && (
                <>
                  <Title order={2} size="h3">What would change</Title>
                  <ImportDiff changes={report.changes} projectId={projectId} environment={validate.variables.environment} linkFlags={false} />
                </>
              )}
              {importable ? (
                <Group>
                  <Button color="green" loading={run.isPending} onClick={() => run.mutate(validate.variables!)}>Import</Button>
                  <Text size="sm" c="dimmed">Writes it all in one go, or nothing.</Text>
                </Group>
              ) : (
                <Text size="sm" c="red.9">Fix what is listed above, then validate again.</Text>
              )}
              <ErrorNotice error={run.error} />
            </Stack>
          )}

          {imported && run.variables && (
            <Stack gap="sm">
              <Alert color="green" title="Imported" role="status">
                {actionCounts(imported.changes)} in {projectId} ({run.variables.environment}).
              </Alert>
              <Group>
                <Button component={Link} to={projectPath} variant="default">Open project {projectId}</Button>
              </Group>
              <ImportItems title="Warnings" items={imported.warnings} color="yellow" />
              <ImportDiff changes={imported.changes} projectId={projectId} environment={run.variables.environment} linkFlags />
            </Stack>
          )}
        </Stack>
      )}
    </>
  );
}
