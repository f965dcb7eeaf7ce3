import { Anchor, Button, Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Can } from '../../components/Can';
import { useConfirm } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAddons, useDeleteAddon } from '../../data/integrations';
import type { ProviderDefinition } from '../../logic/addon-form';
import { AddonCard } from '../integrations/AddonCard';
import { AddonFormModal, type EditedAddon } from '../integrations/AddonFormModal';

type Provider = ProviderDefinition & { description: string; documentationUrl: string };

/**
 * `/admin/addons`: the providers (webhook, Slack, Teams, Datadog) to create an addon of, and every addon with what it
 * listens to and its recent deliveries. Controls appear as the service allows them (CREATE/UPDATE/DELETE_ADDON).
 */
export default function AddonsPage() {
  const data = useAddons();
  const [form, setForm] = useState<{ provider: Provider; addon?: EditedAddon } | null>(null);
  const remove = useConfirm(useDeleteAddon(), {
    title: () => 'Delete addon',
    message: (a) => <>Delete <strong>{a.label}</strong>? It is sent nothing more, and its delivery history goes with it.</>,
  });
  const providers = (data.data?.addonProviders ?? []) as Provider[];
  const byName = new Map(providers.map((p) => [p.name, p]));

  return (
    <>
      <Title order={1} mb="xs">Addons</Title>
      <Text size="sm" c="dimmed" mb="md">
        Addons send the audit events they listen to elsewhere: a webhook, Slack, Microsoft Teams or Datadog. Each delivery is
        retried until the receiver accepts it, and listed under its addon.
      </Text>
      <ErrorNotice error={data.error} />
      {data.isPending && <Loader aria-label="Loading addons" />}
      {data.data && (
        <Stack gap="xl">
          <section aria-labelledby="addon-providers">
            <Title order={2} size="h3" id="addon-providers" mb="sm">Providers</Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              {providers.map((p) => (
                <Card key={p.name} withBorder padding="md">
                  <Text fw={600}>{p.displayName}</Text>
                  <Text size="sm" mb="xs" style={{ flex: 1 }}>{p.description}</Text>
                  <Anchor href={p.documentationUrl} target="_blank" rel="noreferrer" size="sm" mb="xs">{p.displayName} documentation</Anchor>
                  <Can permission="CREATE_ADDON"><Button size="xs" onClick={() => setForm({ provider: p })}>New {p.displayName} addon</Button></Can>
                </Card>
              ))}
            </SimpleGrid>
          </section>
          <section aria-labelledby="addon-list">
            <Title order={2} size="h3" id="addon-list" mb="sm">Your addons</Title>
            {data.data.addons.length === 0 && <Text c="dimmed">No addons yet.</Text>}
            <Stack>
              {data.data.addons.map((a) => {
                const provider = byName.get(a.provider);
                const name = provider?.displayName ?? a.provider;
                return (
                  <AddonCard key={a.id} addon={a} providerName={name}
                    onEdit={() => provider && setForm({ provider, addon: a })}
                    onDelete={() => remove.ask({ id: a.id, label: `${name} addon ${a.id}` })} />
                );
              })}
            </Stack>
          </section>
        </Stack>
      )}
      {form && <AddonFormModal key={form.addon ? `addon-${form.addon.id}` : `new-${form.provider.name}`} provider={form.provider} addon={form.addon} onClose={() => setForm(null)} />}
      {remove.dialog}
    </>
  );
}
