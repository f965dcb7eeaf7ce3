import { Badge, Button, Card, Group, Loader, NumberInput, Stack, Switch, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { ProjectNav } from '../../components/projects/ProjectNav';
import { useProjectSettings, useUpdateChangeRequestConfig, useUpdateProject } from '../../data/projects';
import { useAllowed } from '../../data/session';
import { TableHead } from '../../components/TableHead';

type Config = { environment: string; type: string; changeRequestsEnabled: boolean; requiredApprovals: number };

/**
 * `/projects/:projectId/settings`: the project's name and description, and per environment whether direct changes
 * need a change request and how many approvals one needs. Editable with UPDATE_PROJECT; read-only otherwise.
 */
export default function ProjectSettingsPage() {
  const project = useParams().projectId ?? '';
  const settings = useProjectSettings(project);
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
              <TableHead columns={['Environment', 'Change requests', 'Approvals needed', { label: 'Save', hidden: true }]} />
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
  const save = useUpdateChangeRequestConfig(project);
  const form = useForm({ initialValues: { changeRequestsEnabled: config.changeRequestsEnabled, requiredApprovals: config.requiredApprovals } });
  useServerErrors(form, save.error);
  const env = config.environment;
  const approvals = form.getInputProps('requiredApprovals');

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs"><Text fw={600}>{env}</Text><Badge variant="light" color="gray" tt="none">{config.type}</Badge></Group>
      </Table.Td>
      <Table.Td>
        {may ? (
          <Switch label={`Change requests in ${env}`} {...form.getInputProps('changeRequestsEnabled', { type: 'checkbox' })} />
        ) : (
          <Text size="sm">{config.changeRequestsEnabled ? 'Required' : 'Not required'}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {may ? (
          <NumberInput aria-label={`Approvals needed in ${env}`} hideControls min={1} max={10} w={110} allowDecimal={false} {...approvals}
            onChange={(v) => approvals.onChange(typeof v === 'number' ? v : Number(v) || 1)} />
        ) : (
          <Text size="sm">{config.requiredApprovals}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {may && (
          <Stack gap={4}>
            <Button size="xs" disabled={!form.isDirty()} loading={save.isPending} onClick={() => save.mutate({ environment: env, ...form.getValues() })}
              aria-label={`Save change requests for ${env}`}>Save</Button>
            <ErrorNotice error={save.error} />
          </Stack>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Name and description (updateProject), for those who may change the project. */
function ProjectDetails({ project, may }: { project: { id: string; name: string; description?: string | null }; may: boolean }) {
  const save = useUpdateProject(project.id);
  const form = useForm({ initialValues: { name: project.name, description: project.description ?? '' } });
  useServerErrors(form, save.error);
  const { name } = form.getValues();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="details-heading">
      <Title order={2} size="h3" id="details-heading" mb="xs">Project</Title>
      <form onSubmit={form.onSubmit((v) => save.mutate({ name: v.name.trim(), description: v.description }))}>
        <Stack gap="sm" maw={560}>
          <TextInput label="Name" {...form.getInputProps('name')} readOnly={!may} maxLength={100} required />
          <Textarea label="Description" {...form.getInputProps('description')} readOnly={!may} maxLength={1000} autosize minRows={2} />
          <ErrorNotice error={save.error} />
          {may && (
            <Group>
              <Button type="submit" loading={save.isPending} disabled={!name.trim() || !form.isDirty()}>Save project</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
