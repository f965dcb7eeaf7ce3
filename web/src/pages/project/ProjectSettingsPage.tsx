import { Badge, Button, Card, Group, Loader, NumberInput, Stack, Switch, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { gql } from '../../api/client';
import { useAllowed } from '../../data/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { graphql } from '../../gql';

const SettingsQuery = graphql(`
  query ProjectSettings($project: String!) {
    project(id: $project) { id name description }
    changeRequestConfig(project: $project) { environment type changeRequestsEnabled requiredApprovals }
  }
`);

const UpdateConfigMutation = graphql(`
  mutation ProjectSettingsUpdateChangeRequests($input: UpdateChangeRequestConfigInput!) {
    updateChangeRequestConfig(input: $input) { environment changeRequestsEnabled requiredApprovals }
  }
`);

const UpdateProjectMutation = graphql(`
  mutation ProjectSettingsUpdateProject($input: UpdateProjectInput!) {
    updateProject(input: $input) { id name description }
  }
`);

type Config = { environment: string; type: string; changeRequestsEnabled: boolean; requiredApprovals: number };

/**
 * `/projects/:projectId/settings`: the project's name and description, and per environment whether direct changes
 * need a change request and how many approvals one needs. Editable with UPDATE_PROJECT; read-only otherwise.
 */
export default function ProjectSettingsPage() {
  const project = useParams().projectId ?? '';
  const settings = useQuery({ queryKey: ['project-settings', project], queryFn: () => gql(SettingsQuery, { project }) });
  const may = useAllowed(project).can('UPDATE_PROJECT');

  return (
    <>
      <Title order={1}>{settings.data?.project.name ?? project} settings</Title>
      <Text c="dimmed" size="sm">{project}</Text>
      <ProjectNav projectId={project} />
      {settings.isPending && <Loader aria-label="Loading the settings" />}
      <ErrorNotice error={settings.error} />
      {settings.data && (
        <Stack gap="lg">
          <ProjectDetails key={`${settings.data.project.name}\n${settings.data.project.description ?? ''}`} project={settings.data.project} may={may} />
          <Card withBorder padding="md" component="section" aria-labelledby="cr-heading">
            <Title order={2} size="h3" id="cr-heading">Change requests</Title>
            <Text size="sm" c="dimmed" mb="sm">
              In an environment that needs change requests, edits to flags are proposed as drafts, reviewed by other users, and applied once
              approved. Users holding SKIP_CHANGE_REQUEST there (admins do) change flags directly.
            </Text>
            <Table aria-label="Change requests by environment" verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr><Table.Th>Environment</Table.Th><Table.Th>Change requests</Table.Th><Table.Th>Approvals needed</Table.Th><Table.Th><VisuallyHidden>Save</VisuallyHidden></Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {settings.data.changeRequestConfig.map((c) => (
                  <ConfigRow key={`${c.environment}:${c.changeRequestsEnabled}:${c.requiredApprovals}`} project={project} config={c} may={may} />
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        </Stack>
      )}
    </>
  );
}

/** One environment's setting: a switch and the approvals, saved together (the row is keyed by the saved values). */
function ConfigRow({ project, config, may }: { project: string; config: Config; may: boolean }) {
  const client = useQueryClient();
  const [enabled, setEnabled] = useState(config.changeRequestsEnabled);
  const [approvals, setApprovals] = useState<number>(config.requiredApprovals);
  const env = config.environment;
  const save = useMutation({
    mutationFn: () => gql(UpdateConfigMutation, { input: { project, environment: env, changeRequestsEnabled: enabled, requiredApprovals: approvals } }),
    onSuccess: (r) => {
      const c = r.updateChangeRequestConfig;
      notifications.show({ title: `Saved for ${env}`, message: c.changeRequestsEnabled ? `Change requests on, ${c.requiredApprovals} approval(s).` : 'Change requests off.' });
      // The flag pages and list read the same setting.
      void client.invalidateQueries({ queryKey: ['project-settings', project] });
      void client.invalidateQueries({ queryKey: ['flag-page-change-requests', project] });
      void client.invalidateQueries({ queryKey: ['project-flags', project] });
    },
  });
  const changed = enabled !== config.changeRequestsEnabled || approvals !== config.requiredApprovals;

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs"><Text fw={600}>{env}</Text><Badge variant="light" color="gray" tt="none">{config.type}</Badge></Group>
      </Table.Td>
      <Table.Td>
        {may ? (
          <Switch label={`Change requests in ${env}`} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        ) : (
          <Text size="sm">{config.changeRequestsEnabled ? 'Required' : 'Not required'}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {may ? (
          <NumberInput aria-label={`Approvals needed in ${env}`} hideControls min={1} max={10} w={110} value={approvals} onChange={(v) => setApprovals(typeof v === 'number' ? v : Number(v) || 1)} allowDecimal={false} />
        ) : (
          <Text size="sm">{config.requiredApprovals}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {may && (
          <Stack gap={4}>
            <Button size="xs" disabled={!changed} loading={save.isPending} onClick={() => save.mutate()} aria-label={`Save change requests for ${env}`}>Save</Button>
            <ErrorNotice error={save.error} />
          </Stack>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Name and description (updateProject), for those who may change the project. */
function ProjectDetails({ project, may }: { project: { id: string; name: string; description?: string | null }; may: boolean }) {
  const client = useQueryClient();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const save = useMutation({
    mutationFn: () => gql(UpdateProjectMutation, { input: { id: project.id, name: name.trim(), description } }),
    onSuccess: () => {
      notifications.show({ title: 'Project saved', message: `${name.trim()} was updated.` });
      void client.invalidateQueries({ queryKey: ['project-settings', project.id] });
      void client.invalidateQueries({ queryKey: ['project-flags', project.id] });
      void client.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="details-heading">
      <Title order={2} size="h3" id="details-heading" mb="xs">Project</Title>
      <Stack gap="sm" maw={560}>
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} readOnly={!may} maxLength={100} required />
        <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} readOnly={!may} maxLength={1000} autosize minRows={2} />
        <ErrorNotice error={save.error} />
        {may && (
          <Group>
            <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!name.trim() || (name === project.name && description === (project.description ?? ''))}>
              Save project
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
