import { Anchor, Badge, Button, Card, CloseButton, Group, List, Select, Stack, TagsInput, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useServerErrors } from '../../components/form/FormModal';
import { useAddDependency, useRemoveDependency } from '../../data/flags/edits';
import { useProjectFlagNames, type Flag } from '../../data/flags/flag';
import { links } from '../../routing/links';

/** Parents the flag depends on (with the state and variants they must have), flags that depend on it, and adding one. */
export function FlagDependencies({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const [adding, setAdding] = useState(false);
  // The project's flags are read only when the user starts adding a dependency.
  const flags = useProjectFlagNames(flag.project, adding);
  const remove = useRemoveDependency(flag);
  const taken = new Set([flag.name, ...flag.children, ...flag.dependencies.map((d) => d.feature)]);
  const candidates = (flags.data ?? []).filter((n) => !taken.has(n));

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="flag-dependencies">
      <Title order={2} size="h4" id="flag-dependencies" mb="sm">Dependencies</Title>
      <Stack gap="xs">
        {flag.dependencies.length === 0 ? <Text size="sm" c="dimmed">Depends on no other flag.</Text> : (
          <List size="sm" spacing={4} aria-label="Parent flags">
            {flag.dependencies.map((d) => (
              <List.Item key={d.feature}>
                <Group gap={6}>
                  <Anchor component={Link} to={links.flag(flag.project, d.feature)} size="sm">{d.feature}</Anchor>
                  <Text span size="sm">must be {d.enabled ? 'enabled' : 'disabled'}</Text>
                  {d.variants.map((v) => <Badge key={v} size="sm" variant="outline" color="grape" tt="none">{v}</Badge>)}
                  {mayUpdate && (
                    <CloseButton size="sm" aria-label={`Remove dependency on ${d.feature}`} disabled={remove.isPending} onClick={() => remove.mutate(d.feature)} />
                  )}
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        <ErrorNotice error={remove.error} />
        {flag.children.length > 0 && (
          <div>
            <Text size="sm" fw={500}>Flags that depend on it</Text>
            <Group gap={8}>
              {flag.children.map((c) => <Anchor key={c} component={Link} to={links.flag(flag.project, c)} size="sm">{c}</Anchor>)}
            </Group>
          </div>
        )}
        {mayUpdate && !adding && (
          <Group><Button size="xs" variant="light" onClick={() => setAdding(true)}>Add dependency</Button></Group>
        )}
        {mayUpdate && adding && (
          <DependencyForm flag={flag} candidates={candidates} loading={flags.isPending} error={flags.error} onClose={() => setAdding(false)} />
        )}
      </Stack>
    </Card>
  );
}

interface DependencyFormProps {
  flag: Flag;
  /** The project's other flags that may become a parent. */
  candidates: string[];
  loading: boolean;
  error: unknown;
  onClose(): void;
}

/** A new dependency: the parent, the state it must have, and (enabled) the variants it must resolve to. */
function DependencyForm({ flag, candidates, loading, error, onClose }: DependencyFormProps) {
  const add = useAddDependency(flag);
  const form = useForm({ initialValues: { parent: null as string | null, state: 'enabled', variants: [] as string[] } });
  useServerErrors(form, add.error);
  const { parent, state } = form.getValues();
  const submit = form.onSubmit((v) => {
    if (v.parent) add.mutate({ parent: v.parent, enabled: v.state === 'enabled', variants: v.variants }, { onSuccess: onClose });
  });
  return (
    <Stack gap="xs">
      <Select label="Parent flag" searchable data={candidates} {...form.getInputProps('parent')}
        placeholder={loading ? 'Loading flags…' : 'Pick a flag of this project'} nothingFoundMessage="No other flag in this project" />
      <ErrorNotice error={error} />
      <Select label="Required state" data={[{ value: 'enabled', label: 'Parent enabled' }, { value: 'disabled', label: 'Parent disabled' }]}
        {...form.getInputProps('state')} allowDeselect={false} />
      {state === 'enabled' && (
        <TagsInput label="Required variants" description="Optional: the parent must resolve to one of these." {...form.getInputProps('variants')} />
      )}
      <Group gap="xs">
        <Button size="xs" disabled={!parent} loading={add.isPending} onClick={() => submit()}>Save dependency</Button>
        <Button size="xs" variant="default" onClick={onClose}>Cancel</Button>
      </Group>
      <ErrorNotice error={add.error} />
    </Stack>
  );
}
