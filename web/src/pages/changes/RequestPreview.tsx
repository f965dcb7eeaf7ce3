import { Alert, Badge, Button, Card, Group, List, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useRequestContextFields, useRequestPreview } from '../../data/change-requests';
import { toContextInput, type ContextEntry } from '../../logic/playground-context';
import { ContextForm } from '../playground/ContextForm';
import { TableHead } from '../../components/TableHead';

type Outcome = { isEnabled: boolean; variant: { name: string } } | null | undefined;
const said = (r: Outcome) => (!r ? 'absent' : `${r.isEnabled ? 'on' : 'off'}${r.variant.name !== 'disabled' ? ` · ${r.variant.name}` : ''}`);

/**
 * "What would this request change for this context": the service applies the request to an in-memory copy and
 * evaluates the context before and after (nothing is written). One context, built with the playground's form.
 */
export function RequestPreview({ project, id }: { project: string; id: number }) {
  const fields = useRequestContextFields();
  const [appName, setAppName] = useState('preview');
  const [entries, setEntries] = useState<ContextEntry[]>([{ name: 'userId', value: '' }]);
  const preview = useRequestPreview(project, id);
  const result = preview.data?.changeRequest.preview;

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="preview-heading">
      <Title order={2} size="h3" id="preview-heading">Preview</Title>
      <Text size="sm" c="dimmed" mb="sm">What the request would change for a context: each affected flag evaluated now and after it is applied.</Text>
      <form onSubmit={(e) => { e.preventDefault(); preview.mutate(toContextInput(appName, entries)); }}>
        <ContextForm fields={fields.data?.contextFields ?? []} appName={appName} onAppName={setAppName} entries={entries} onEntries={setEntries} advanced={false} />
        <Group mt="sm"><Button type="submit" variant="light" loading={preview.isPending}>Preview</Button></Group>
      </form>
      <ErrorNotice error={preview.error ?? fields.error} />
      {result && (
        <>
          <Text size="sm" mt="sm" role="status">
            {result.changedCount === 0 ? 'Nothing changes for this context.' : `${result.changedCount} result${result.changedCount === 1 ? '' : 's'} change for this context.`}
          </Text>
          {result.warnings.length > 0 && (
            <Alert color="orange" title="Left out of the preview" mt="xs">
              <List size="sm">{result.warnings.map((w) => <List.Item key={w.changeId}>{w.feature ?? 'segment'} ({w.action}): {w.message}</List.Item>)}</List>
            </Alert>
          )}
          <Table mt="xs" withTableBorder fz="sm" aria-label="Preview results">
            <TableHead columns={['Flag', 'Why shown', 'Now', 'After']} />
            <Table.Tbody>
              {result.features.flatMap((f) => f.results.map((r, i) => (
                <Table.Tr key={`${f.name}:${i}`}>
                  <Table.Td>{f.name}</Table.Td>
                  <Table.Td>{f.reasons.join(', ')}</Table.Td>
                  <Table.Td>{said(r.before)}</Table.Td>
                  <Table.Td>{said(r.after)} {r.changed && <Badge size="sm" color="orange" variant="light" tt="none">changes</Badge>}</Table.Td>
                </Table.Tr>
              )))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Card>
  );
}
