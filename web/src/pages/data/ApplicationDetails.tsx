import { Anchor, Badge, Button, Card, ColorInput, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { useUpdateApplication, type ApplicationDetailsValues } from '../../data/data';
import type { DataApplicationQuery as Loaded } from '../../gql/graphql';

type App = Loaded['application'];

/** Only http(s) links are made clickable: an admin-set URL is shown, never followed as javascript: or data:. */
const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/** The application's details: what an admin set (description, link, colour; editable when allowed) and what SDKs told. */
export function ApplicationDetails({ app, mayUpdate }: { app: App; mayUpdate: boolean }) {
  const save = useUpdateApplication(app.appName);
  const saved: ApplicationDetailsValues = { description: app.description ?? '', url: app.url ?? '', color: app.color ?? '' };
  const form = useForm({ initialValues: saved });
  useServerErrors(form, save.error);
  // The server's values replace the form whenever they change (after a save, or an edit made elsewhere).
  useEffect(() => { form.setValues(saved); }, [app.description, app.url, app.color]); // eslint-disable-line react-hooks/exhaustive-deps
  const { values } = form;
  const changed = values.description !== saved.description || values.url !== saved.url || values.color !== saved.color;

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="app-details">
      <Title order={2} size="h4" id="app-details" mb="sm">Details</Title>
      {mayUpdate ? (
        <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
          <Stack gap="sm">
            <Textarea label="Description" autosize minRows={2} maxRows={6} {...form.getInputProps('description')} />
            <TextInput label="URL" placeholder="https://…" {...form.getInputProps('url')} />
            <ColorInput label="Color" placeholder="#228be6" withEyeDropper={false} format="hex" {...form.getInputProps('color')} />
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={save.isPending} disabled={!changed}>Save</Button>
            </Group>
            <ErrorNotice error={save.error} />
          </Stack>
        </form>
      ) : (
        <Stack gap={4}>
          <Text size="sm" c={app.description ? undefined : 'dimmed'}>{app.description || 'No description.'}</Text>
          {app.url && (isWebLink(app.url) ? <Anchor href={app.url} size="sm" target="_blank" rel="noopener noreferrer">{app.url}</Anchor> : <Text size="sm">{app.url}</Text>)}
        </Stack>
      )}
      <Stack gap={4} mt="md">
        {mayUpdate && app.url && isWebLink(app.url) && <Anchor href={app.url} size="sm" target="_blank" rel="noopener noreferrer">Open {app.url}</Anchor>}
        <Text size="sm"><Text span fw={500}>First seen:</Text> {new Date(app.createdAt).toLocaleString()} by {app.createdBy}</Text>
        <Text size="sm"><Text span fw={500}>Last seen:</Text> {app.lastSeen ? new Date(app.lastSeen).toLocaleString() : 'never'}</Text>
        <Text size="sm" fw={500}>Strategies its SDK implements</Text>
        <Group gap={4}>
          {app.strategies.length ? app.strategies.map((s) => <Badge key={s} variant="light" color="gray" tt="none">{s}</Badge>) : <Text size="sm" c="dimmed">None reported.</Text>}
        </Group>
        <Text size="sm" fw={500} mt="xs">Reads</Text>
        {app.usage.length === 0 ? <Text size="sm" c="dimmed">No project known (no token-authenticated report yet).</Text> : app.usage.map((u) => (
          <Text size="sm" key={u.project}>{u.project === '*' ? 'Every project' : u.project}: {u.environments.join(', ')}</Text>
        ))}
      </Stack>
    </Card>
  );
}
