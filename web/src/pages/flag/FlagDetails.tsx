import { Badge, Button, Card, CloseButton, Group, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { useSetFlagStale, useTagFlag, useUntagFlag, useUpdateFlag } from '../../data/flags/edits';
import { useFlagChoices, type Flag } from '../../data/flags/flag';

/** The flag's metadata: description (saved with "Save"), type, stale and impression data, each sent on its own. */
export function FlagDetails({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const choices = useFlagChoices();
  const setType = useUpdateFlag(flag);
  const setImpressions = useUpdateFlag(flag);
  const setStale = useSetFlagStale(flag);

  const types = choices.data?.featureTypes ?? [];
  const typeData = types.some((t) => t.id === flag.type) ? types.map((t) => ({ value: t.id, label: t.name })) : [{ value: flag.type, label: flag.type }, ...types.map((t) => ({ value: t.id, label: t.name }))];

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-details">
      <Title order={2} size="h4" id="flag-details" mb="sm">Details</Title>
      <Stack gap="sm">
        {mayUpdate ? (
          <DescriptionForm flag={flag} />
        ) : (
          <div>
            <Text size="sm" fw={500}>Description</Text>
            <Text size="sm" c={flag.description ? undefined : 'dimmed'}>{flag.description || 'No description.'}</Text>
          </div>
        )}
        {mayUpdate ? (
          <div>
            <Select label="Type" data={typeData} value={flag.type} allowDeselect={false} disabled={setType.isPending}
              onChange={(type) => type && type !== flag.type && setType.mutate({ type })} />
            <ErrorNotice error={setType.error} />
          </div>
        ) : (
          <Text size="sm"><Text span fw={500}>Type:</Text> {types.find((t) => t.id === flag.type)?.name ?? flag.type}</Text>
        )}
        {mayUpdate ? (
          <div>
            <Switch label="Stale" checked={flag.stale} disabled={setStale.isPending} onChange={(e) => setStale.mutate(e.currentTarget.checked)} />
            <ErrorNotice error={setStale.error} />
            <Switch mt="sm" label="Impression data" checked={flag.impressionData} disabled={setImpressions.isPending}
              onChange={(e) => setImpressions.mutate({ impressionData: e.currentTarget.checked })} />
            <ErrorNotice error={setImpressions.error} />
          </div>
        ) : (
          <Group gap="xs">
            <Badge variant="light" color={flag.stale ? 'orange' : 'gray'} tt="none">{flag.stale ? 'Stale' : 'Not stale'}</Badge>
            <Badge variant="light" color="gray" tt="none">Impression data {flag.impressionData ? 'on' : 'off'}</Badge>
          </Group>
        )}
        <ErrorNotice error={choices.error} />
      </Stack>
    </Card>
  );
}

/** The flag's tags: each with a remove button, and a type and value to add one. */
export function FlagTags({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const choices = useFlagChoices();
  const add = useTagFlag(flag);
  const remove = useUntagFlag(flag);
  const form = useForm({ initialValues: { type: 'simple', value: '' } });
  useServerErrors(form, add.error);
  const tagTypes = (choices.data?.tagTypes ?? []).map((t) => t.name);
  const submit = form.onSubmit(({ type, value }) => {
    if (value.trim()) add.mutate({ type, value: value.trim() }, { onSuccess: () => form.setFieldValue('value', '') });
  });

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-tags">
      <Title order={2} size="h4" id="flag-tags" mb="sm">Tags</Title>
      {flag.tags.length === 0 ? <Text size="sm" c="dimmed">No tags.</Text> : (
        <Group gap={6}>
          {flag.tags.map((t) => (
            <Badge key={`${t.type}:${t.value}`} variant="light" tt="none" size="lg"
              rightSection={mayUpdate ? (
                <CloseButton size="xs" aria-label={`Remove tag ${t.type}:${t.value}`} disabled={remove.isPending} onClick={() => remove.mutate({ type: t.type, value: t.value })} />
              ) : undefined}>
              {t.type}:{t.value}
            </Badge>
          ))}
        </Group>
      )}
      <ErrorNotice error={remove.error} />
      {mayUpdate && (
        <form onSubmit={submit}>
          <Group gap="xs" mt="sm" align="flex-end" wrap="nowrap">
            <Select label="Tag type" data={tagTypes.length ? tagTypes : ['simple']} {...form.getInputProps('type')} allowDeselect={false} w={130} />
            <TextInput label="Tag value" {...form.getInputProps('value')} style={{ flex: 1 }} />
            <Button type="submit" variant="light" loading={add.isPending} disabled={!form.getValues().value.trim()}>Add tag</Button>
          </Group>
          <ErrorNotice error={add.error} />
        </form>
      )}
    </Card>
  );
}

/** The description, saved with "Save"; the service's description replaces the draft whenever it changes (a save, or an edit elsewhere). */
function DescriptionForm({ flag }: { flag: Flag }) {
  const save = useUpdateFlag(flag);
  const saved = flag.description ?? '';
  const form = useForm({ initialValues: { description: saved } });
  useServerErrors(form, save.error);
  useEffect(() => form.setValues({ description: saved }), [saved]); // eslint-disable-line react-hooks/exhaustive-deps
  const { description } = form.getValues();
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate({ description: v.description }))}>
      <Textarea label="Description" autosize minRows={2} maxRows={8} {...form.getInputProps('description')} />
      <Group justify="flex-end" mt={6}>
        <Button type="submit" size="xs" disabled={description === saved} loading={save.isPending}>Save</Button>
      </Group>
      <ErrorNotice error={save.error} />
    </form>
  );
}
