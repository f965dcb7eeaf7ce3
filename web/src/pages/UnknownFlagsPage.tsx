import { Button, Group, Loader, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { TableHead } from '../components/TableHead';
import { NewFlagModal } from '../components/flags/NewFlagModal';
import { useUnknownFlags } from '../data/data';
import { groupUnknownFlags } from '../logic/unknown-flags';
import { When } from './data/When';

/**
 * `/unknown-flags`: names SDKs report in their metrics that no flag has (a typo in code, or a flag deleted while code
 * still asks for it), one row per name with the applications and environments that asked, and "Create this flag".
 */
export default function UnknownFlagsPage() {
  const unknown = useUnknownFlags();
  const [creating, setCreating] = useState<string | null>(null);
  const names = useMemo(() => groupUnknownFlags(unknown.data?.unknownFlags ?? []), [unknown.data]);
  const projects = unknown.data?.projects ?? [];
  return (
    <>
      <Title order={1}>Unknown flags</Title>
      <Text c="dimmed" size="sm" mb="md">Flag names SDKs reported in the last 7 days that no flag has: a typo in code, or a flag deleted while code still asks for it.</Text>
      <ErrorNotice error={unknown.error} />
      {unknown.isPending && <Loader aria-label="Loading unknown flags" />}
      {unknown.data && names.length === 0 && <Text c="dimmed">No SDK reported a flag that does not exist.</Text>}
      {names.length > 0 && (
        <Table verticalSpacing="sm" highlightOnHover aria-label="Unknown flags">
          <TableHead columns={['Name', 'Applications', 'Environments', 'Last reported', { label: 'Actions', ta: 'right' }]} />
          <Table.Tbody>
            {names.map((n) => (
              <Table.Tr key={n.name}>
                <Table.Td><Text fw={500} id={`unknown-${n.name}`}>{n.name}</Text></Table.Td>
                <Table.Td><Text size="sm">{n.appNames.join(', ')}</Text></Table.Td>
                <Table.Td><Text size="sm">{n.environments.join(', ')}</Text></Table.Td>
                <Table.Td><Text size="sm"><When iso={n.seenAt} /></Text></Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <Button size="xs" variant="light" aria-describedby={`unknown-${n.name}`} disabled={projects.length === 0}
                      onClick={() => setCreating(n.name)}>Create this flag</Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {creating !== null && unknown.data && projects.length > 0 && (
        <NewFlagModal onClose={() => setCreating(null)} projectId={projects.some((p) => p.id === 'default') ? 'default' : projects[0].id}
          projects={projects} featureTypes={unknown.data.featureTypes} initialName={creating} />
      )}
    </>
  );
}
