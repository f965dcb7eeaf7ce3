import { ActionIcon, Button, Group, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { addableFields, splitValues, type ContextEntry } from '../../logic/playground-context';

export interface ContextFieldOption {
  name: string;
  description?: string | null;
  legalValues: Array<{ value: string; description?: string | null }>;
}

// Descriptions under the inputs, so inputs of one grid row line up whatever their descriptions' lengths.
const ORDER: Array<'label' | 'input' | 'description' | 'error'> = ['label', 'input', 'description', 'error'];

const HINTS: Record<string, string> = {
  currentTime: 'RFC 3339, for example 2030-01-01T12:00:00Z (blank: now)',
  remoteAddress: 'An IP address',
};

/**
 * The context: appName, then one row per field on the form (a Select of the legal values when the field has them,
 * free text otherwise; in the advanced form several values, comma-separated), "Add context field" for any other field
 * the service knows, and a remove button per row.
 */
export function ContextForm({ fields, appName, onAppName, entries, onEntries, advanced }: {
  fields: ContextFieldOption[];
  appName: string;
  onAppName(v: string): void;
  entries: ContextEntry[];
  onEntries(next: ContextEntry[]): void;
  advanced: boolean;
}) {
  const [adding, setAdding] = useState<string | null>(null);
  const byName = new Map(fields.map((f) => [f.name, f]));
  const addable = addableFields(fields.map((f) => f.name), entries);
  const set = (name: string, value: string) => onEntries(entries.map((e) => (e.name === name ? { ...e, value } : e)));
  const commaHint = advanced ? 'Comma-separated values: each one is evaluated.' : undefined;

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
        <TextInput label="appName" required inputWrapperOrder={ORDER} value={appName} onChange={(e) => onAppName(e.currentTarget.value)}
          description={advanced ? commaHint : 'The application asking'} />
      {entries.map((entry) => {
        const field = byName.get(entry.name);
        const legal = field?.legalValues.map((l) => ({ value: l.value, label: l.description ? `${l.value} (${l.description})` : l.value })) ?? [];
        const description = [field?.description, HINTS[entry.name], legal.length ? undefined : commaHint].filter(Boolean).join(' · ') || undefined;
        let input;
        if (legal.length && advanced) {
          input = <MultiSelect label={entry.name} inputWrapperOrder={ORDER} description={description} data={legal} value={splitValues(entry.value)}
            onChange={(v) => set(entry.name, v.join(','))} searchable clearable style={{ flex: 1 }} />;
        } else if (legal.length) {
          input = <Select label={entry.name} inputWrapperOrder={ORDER} description={description} data={legal} value={entry.value || null}
            onChange={(v) => set(entry.name, v ?? '')} searchable clearable style={{ flex: 1 }} />;
        } else {
          input = <TextInput label={entry.name} inputWrapperOrder={ORDER} description={description} value={entry.value}
            onChange={(e) => set(entry.name, e.currentTarget.value)} style={{ flex: 1 }} />;
        }
        return (
          <Group key={entry.name} align="flex-start" wrap="nowrap" gap="xs">
            {input}
            <ActionIcon variant="default" size="lg" aria-label={`Remove context field ${entry.name}`} mt={23}
              onClick={() => onEntries(entries.filter((e) => e.name !== entry.name))}>
              <span aria-hidden>×</span>
            </ActionIcon>
          </Group>
        );
      })}
      </SimpleGrid>
      <Group align="flex-end" gap="xs">
        <Select label="Context field to add" placeholder={addable.length ? 'Choose a field' : 'Every field is on the form'} data={addable}
          value={adding} onChange={setAdding} searchable disabled={!addable.length} w={240} />
        <Button variant="default" disabled={!adding} onClick={() => {
          if (!adding) return;
          onEntries([...entries, { name: adding, value: '' }]);
          setAdding(null);
        }}>Add context field</Button>
      </Group>
      {fields.length === 0 && <Text size="xs" c="dimmed">No context fields are defined.</Text>}
    </Stack>
  );
}
