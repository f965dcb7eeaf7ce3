import { Anchor, Badge, Breadcrumbs, Grid, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { useChangeRequestConfig, useFlag, usePendingChangeRequests } from '../data/flags/flag';
import { useAllowed } from '../data/session';
import { EnvironmentSection } from './flag/EnvironmentSection';
import { ArchivedNotice, FlagActions } from './flag/FlagActions';
import { FlagDependencies } from './flag/FlagDependencies';
import { FlagDetails, FlagTags } from './flag/FlagDetails';
import { FlagEvents } from './flag/FlagEvents';
import { FlagExposure } from './flag/FlagExposure';
import { FlagHistory } from './flag/FlagHistory';
import { FlagLifecycle } from './flag/FlagLifecycle';
import { FlagUsage } from './flag/FlagUsage';
import { href, links } from '../routing/links';
import { useUrlState } from '../routing/useUrlState';

const TABS = ['overview', 'history'] as const;
type Tab = (typeof TABS)[number];

/**
 * A flag (`/projects/:projectId/features/:featureName`), in two tabs (`?tab=`, so a link can open either): "Overview",
 * its metadata, tags and dependencies, each environment with its switch, strategies and variants, clone/archive/revive,
 * and its events; "History", its versions, the flag as it was at each, and reverting to one. Every control appears only
 * when the service says the user may use it, and every change is read back from the service.
 */
export default function FlagPage() {
  const { projectId = '', featureName = '' } = useParams();
  // Another flag (a clone, a parent) starts afresh: no draft, dialog or form of the previous one carries over.
  return <FlagView key={featureName} projectId={projectId} featureName={featureName} />;
}

function FlagView({ projectId, featureName }: { projectId: string; featureName: string }) {
  const flag = useFlag(featureName);
  const project = flag.data?.feature.project ?? projectId;
  const changeRequests = useChangeRequestConfig(project, flag.isSuccess);
  const anyGuarded = !!changeRequests.data?.changeRequestConfig.some((c) => c.changeRequestsEnabled);
  const pending = usePendingChangeRequests(project, featureName, anyGuarded);
  const allowed = useAllowed(project);
  const [{ tab: tabParam }, setUrl] = useUrlState(['tab']);
  const tab: Tab = TABS.find((t) => t === tabParam) ?? 'overview';

  if (flag.isPending) {
    return <Stack><Title order={1}>{featureName}</Title><Loader role="status" aria-label="Loading the flag" /></Stack>;
  }
  if (flag.isError) {
    return <Stack><Title order={1}>{featureName}</Title><ErrorNotice error={flag.error} /></Stack>;
  }
  const f = flag.data.feature;
  const readOnly = f.archived;
  const guarded = new Map((changeRequests.data?.changeRequestConfig ?? []).filter((c) => c.changeRequestsEnabled).map((c) => [c.environment, c]));

  return (
    <Stack gap="md">
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to={href('projects')} size="sm">Projects</Anchor>
        <Anchor component={Link} to={links.project(f.project)} size="sm">{f.project}</Anchor>
        <Text size="sm" aria-current="page">{f.name}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={1}>{f.name}</Title>
            {f.archived && <Badge color="orange" size="lg">Archived</Badge>}
            {f.stale && <Badge color="yellow" variant="light" size="lg" tt="none">Stale</Badge>}
            {!f.stale && f.potentiallyStale && <Badge color="orange" variant="light" size="lg" tt="none">Potentially stale</Badge>}
            {f.lifecycle.trafficAfterDiscard && <Badge color="red" variant="light" size="lg" tt="none">Discarded, still in use</Badge>}
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            Project {f.project} · type {f.type} · created {new Date(f.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
          </Text>
        </div>
        {!readOnly && <FlagActions flag={f} mayClone={allowed.can('CREATE_FEATURE')} mayArchive={allowed.can('DELETE_FEATURE')} />}
      </Group>
      {f.project !== projectId && (
        <Text size="sm">This flag belongs to project <Anchor component={Link} to={links.project(f.project)}>{f.project}</Anchor>.</Text>
      )}
      {f.archived && <ArchivedNotice flag={f} mayRevive={allowed.can('UPDATE_FEATURE')} />}
      <ErrorNotice error={changeRequests.error} />

      <Tabs value={tab} onChange={(v) => setUrl({ tab: v === 'overview' ? null : v })} keepMounted={false}>
        <Tabs.List aria-label="Views of the flag">
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="md">
                {f.environments.length === 0 && <Text c="dimmed">The project has no environments.</Text>}
                {f.environments.map((env) => {
                  const cr = guarded.get(env.name);
                  return (
                    <EnvironmentSection key={env.name} project={f.project} featureName={f.name} environment={env} readOnly={readOnly}
                      pending={(pending.data?.pendingChangeRequests ?? []).filter((r) => r.environment === env.name)}
                      {...(cr ? { changeRequests: { requiredApprovals: cr.requiredApprovals } } : {})} />
                  );
                })}
                <FlagExposure featureName={f.name} environments={f.environments.map((e) => e.name)} />
                <FlagEvents featureName={f.name} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack gap="md">
                <FlagDetails flag={f} mayUpdate={!readOnly && allowed.can('UPDATE_FEATURE')} />
                <FlagLifecycle flag={f} mayUpdate={!readOnly && allowed.can('UPDATE_FEATURE')} />
                <FlagTags flag={f} mayUpdate={!readOnly && allowed.can('UPDATE_FEATURE')} />
                <FlagDependencies flag={f} mayUpdate={!readOnly && allowed.can('UPDATE_FEATURE_DEPENDENCY')} />
                <FlagUsage featureName={f.name} />
              </Stack>
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <FlagHistory flag={f} guardedEnvironments={[...guarded.keys()]} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
