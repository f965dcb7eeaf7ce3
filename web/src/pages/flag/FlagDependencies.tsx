import { Anchor, Badge, Button, Card, CloseButton, Group, List, Select, Stack, TagsInput, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { gql } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FlagPageAddDependency, FlagPageProjectFlagsQuery, FlagPageRemoveDependency, useFlagMutation, type Flag } from './queries';
import { links } from '../../routing/links';


/** Parents the flag depends on (with the state and variants they must have), flags that depend on it, and adding one. */
export function FlagDependencies({ flag, mayUpdate }: { flag: Flag; mayUpdate: boolean }) {
  const [adding, setAdding] = useState(false);
  const [parent, setParent] = useState<string | null>(null);
  const [state, setState] = useState<string>('enabled');
  const [variants, setVariants] = useState<string[]>([]);
  // The project's flags are read only when the user starts adding a dependency.
  const flags = useQuery({
    queryKey: ['flag-page-project-flags', flag.project],
    queryFn: () => gql(FlagPageProjectFlagsQuery, { project: flag.project }),
    enabled: adding,
  });
  const add = useFlagMutation(flag.name, () =>
    gql(FlagPageAddDependency, {
      input: { project: flag.project, feature: flag.name, parent: parent ?? '', enabled: state === 'enabled', ...(state === 'enabled' && variants.length ? { variants } : {}) },
    }));
  const remove = useFlagMutation(flag.name, (p: string) => gql(FlagPageRemoveDependency, { input: { project: flag.project, feature: flag.name, parent: p } }));

  const taken = new Set([flag.name, ...flag.children, ...flag.dependencies.map((d) => d.feature)]);
  const candidates = (flags.data?.project.features.nodes ?? []).map((f) => f.name).filter((n) => !taken.has(n));

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
          <Stack gap="xs">
            <Select label="Parent flag" searchable data={candidates} value={parent} onChange={setParent}
              placeholder={flags.isPending ? 'Loading flags…' : 'Pick a flag of this project'} nothingFoundMessage="No other flag in this project" />
            <ErrorNotice error={flags.error} />
            <Select label="Required state" data={[{ value: 'enabled', label: 'Parent enabled' }, { value: 'disabled', label: 'Parent disabled' }]}
              value={state} onChange={(v) => setState(v ?? 'enabled')} allowDeselect={false} />
            {state === 'enabled' && (
              <TagsInput label="Required variants" description="Optional: the parent must resolve to one of these." value={variants} onChange={setVariants} />
            )}
            <Group gap="xs">
              <Button size="xs" disabled={!parent} loading={add.isPending}
                onClick={() => add.mutate(undefined, { onSuccess: () => { setAdding(false); setParent(null); setVariants([]); } })}>
                Save dependency
              </Button>
              <Button size="xs" variant="default" onClick={() => { setAdding(false); add.reset(); }}>Cancel</Button>
            </Group>
            <ErrorNotice error={add.error} />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
