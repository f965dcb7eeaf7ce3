import { Badge, Button, Card, CloseButton, Group, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FlagPageChoicesQuery, FlagPageSetStale, FlagPageTag, FlagPageUntag, FlagPageUpdateFeature, useFlagMutation, type Flag } from './queries';

const useChoices = () => useQuery({ queryKey: ['flag-page-choices'], queryFn: () => gql(FlagPageChoicesQuery), staleTime: 5 * 60_000 });

/** The flag's metadata: description (saved with "Save"), type, stale and impression data, each sent on its own. */
export function FlagDetails({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const choices = useChoices();
  const [description, setDescription] = useState(flag.description ?? '');
  // The server's description replaces the draft whenever it changes (after a save, or an edit made elsewhere).
  useEffect(() => setDescription(flag.description ?? ''), [flag.description]);

  const base = { project: flag.project, feature: flag.name };
  const saveDescription = useFlagMutation(flag.name, (value: string) => gql(FlagPageUpdateFeature, { input: { ...base, description: value } }));
  const setType = useFlagMutation(flag.name, (type: string) => gql(FlagPageUpdateFeature, { input: { ...base, type } }));
  const setImpressions = useFlagMutation(flag.name, (impressionData: boolean) => gql(FlagPageUpdateFeature, { input: { ...base, impressionData } }));
  const setStale = useFlagMutation(flag.name, (stale: boolean) =>
    gql(FlagPageSetStale, { input: { project: flag.project, features: [flag.name], stale } }));

  const types = choices.data?.featureTypes ?? [];
  const typeData = types.some((t) => t.id === flag.type) ? types.map((t) => ({ value: t.id, label: t.name })) : [{ value: flag.type, label: flag.type }, ...types.map((t) => ({ value: t.id, label: t.name }))];

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-details">
      <Title order={2} size="h4" id="flag-details" mb="sm">Details</Title>
      <Stack gap="sm">
        {mayUpdate ? (
          <div>
            <Textarea label="Description" autosize minRows={2} maxRows={8} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
            <Group justify="flex-end" mt={6}>
              <Button size="xs" disabled={description === (flag.description ?? '')} loading={saveDescription.isPending} onClick={() => saveDescription.mutate(description)}>
                Save
              </Button>
            </Group>
            <ErrorNotice error={saveDescription.error} />
          </div>
        ) : (
          <div>
            <Text size="sm" fw={500}>Description</Text>
            <Text size="sm" c={flag.description ? undefined : 'dimmed'}>{flag.description || 'No description.'}</Text>
          </div>
        )}
        {mayUpdate ? (
          <div>
            <Select label="Type" data={typeData} value={flag.type} allowDeselect={false} disabled={setType.isPending}
              onChange={(value) => value && value !== flag.type && setType.mutate(value)} />
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
              onChange={(e) => setImpressions.mutate(e.currentTarget.checked)} />
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
  const choices = useChoices();
  const [type, setType] = useState<string | null>('simple');
  const [value, setValue] = useState('');
  const add = useFlagMutation(flag.name, (tag: { type: string; value: string }) => gql(FlagPageTag, { input: { feature: flag.name, ...tag } }));
  const remove = useFlagMutation(flag.name, (tag: { type: string; value: string }) => gql(FlagPageUntag, { input: { feature: flag.name, ...tag } }));
  const tagTypes = (choices.data?.tagTypes ?? []).map((t) => t.name);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!type || !value.trim()) return;
    add.mutate({ type, value: value.trim() }, { onSuccess: () => setValue('') });
  };

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
            <Select label="Tag type" data={tagTypes.length ? tagTypes : ['simple']} value={type} onChange={setType} allowDeselect={false} w={130} />
            <TextInput label="Tag value" value={value} onChange={(e) => setValue(e.currentTarget.value)} style={{ flex: 1 }} />
            <Button type="submit" variant="light" loading={add.isPending} disabled={!value.trim()}>Add tag</Button>
          </Group>
          <ErrorNotice error={add.error} />
        </form>
      )}
    </Card>
  );
}
