import { Button, CopyButton, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useExport } from '../../data/data';
import { exportFileName, type ExportScope } from '../../logic/import-export';

interface ExportModalProps {
  opened: boolean;
  onClose(): void;
  projectId: string;
  environments: string[];
  /** The flags ticked in the list; empty: the whole project is the only choice. */
  selected: string[];
}

/** A Blob URL of the text for the download link, revoked when the text changes or the dialog goes. */
function useBlobUrl(text: string | null): string | null {
  const url = useMemo(() => (text === null ? null : URL.createObjectURL(new Blob([text], { type: 'application/json' }))), [text]);
  useEffect(() => () => { if (url) URL.revokeObjectURL(url); }, [url]);
  return url;
}

/**
 * Export from the flag list: the selected flags or the whole project, from one environment (its strategies, switch
 * and variants). The service's export (which records a features-exported event) is shown as JSON to copy, and offered
 * as a file to download.
 */
export function ExportModal({ opened, onClose, projectId, environments, selected }: ExportModalProps) {
  const [environment, setEnvironment] = useState<string | null>(null);
  const [what, setWhat] = useState<'selected' | 'project'>('selected');
  const run = useExport();
  const { reset } = run;

  // Each opening starts afresh: the selection may have changed since the last export.
  useEffect(() => {
    if (!opened) return;
    reset();
    setWhat(selected.length > 0 ? 'selected' : 'project');
    setEnvironment((env) => (env && environments.includes(env) ? env : environments[0] ?? null));
  }, [opened, reset, selected.length, environments]);

  const scope: ExportScope = what === 'selected' && selected.length > 0 ? { project: projectId, features: selected } : { project: projectId };
  const json = run.data && run.variables ? JSON.stringify(run.data.exportFeatures, null, 2) : null;
  const url = useBlobUrl(json);
  const fileName = run.variables ? exportFileName(run.variables.scope, run.variables.environment, new Date()) : '';

  return (
    <Modal opened={opened} onClose={onClose} title="Export flags" size="lg">
      <Stack gap="sm">
        {selected.length > 0 ? (
          <SegmentedControl aria-label="What to export" value={what} onChange={(v) => { setWhat(v as 'selected' | 'project'); reset(); }}
            data={[{ value: 'selected', label: `${selected.length} selected flag${selected.length === 1 ? '' : 's'}` }, { value: 'project', label: 'The whole project' }]} />
        ) : (
          <Text size="sm">Every active flag of {projectId}. Tick flags in the list to export only those.</Text>
        )}
        <Select label="Environment" description="Its strategies, switch and variants are exported." data={environments} value={environment}
          onChange={(v) => { setEnvironment(v); reset(); }} allowDeselect={false} />
        <Group justify="flex-end">
          <Button onClick={() => environment && run.mutate({ scope, environment })} loading={run.isPending} disabled={!environment}>
            Export
          </Button>
        </Group>
        <ErrorNotice error={run.error} />
        {json !== null && url && (
          <>
            <Textarea label="Export JSON" value={json} readOnly autosize minRows={6} maxRows={16}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} />
            <Group justify="flex-end" gap="xs">
              <Text size="xs" c="dimmed" mr="auto">{fileName}</Text>
              <CopyButton value={json}>
                {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
              </CopyButton>
              <Button component="a" href={url} download={fileName}>Download</Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
