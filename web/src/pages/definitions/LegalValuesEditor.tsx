import { ActionIcon, Button, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { newLegalValue, type LegalValueDraft } from '../../logic/definitions';

interface LegalValuesEditorProps {
  value: LegalValueDraft[];
  onChange(next: LegalValueDraft[]): void;
  /** Problems by position (logic/definitions legalValueProblems), shown once the form was sent. */
  problems: ReadonlyArray<string | undefined>;
}

/** A context field's legal values: each a value and what it means, added and removed row by row. */
export function LegalValuesEditor({ value, onChange, problems }: LegalValuesEditorProps) {
  const update = (i: number, patch: Partial<LegalValueDraft>) => onChange(value.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <Stack gap="xs">
      <div>
        <Title order={2} size="h5">Legal values</Title>
        <Text size="sm" c="dimmed">
          {value.length === 0 ? 'None: constraints on this field take any value.' : 'Constraints on this field offer only these values.'}
        </Text>
      </div>
      {value.map((v, i) => (
        <Group key={v.key} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput label={`Value ${i + 1}`} value={v.value} error={problems[i]} w={180}
            onChange={(e) => update(i, { value: e.currentTarget.value })} />
          <TextInput label={`Description of value ${i + 1}`} value={v.description} style={{ flex: 1 }}
            onChange={(e) => update(i, { description: e.currentTarget.value })} />
          <Tooltip label={`Remove value ${i + 1}`}>
            <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove value ${i + 1}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
              <span aria-hidden>✕</span>
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...value, newLegalValue()])}>Add legal value</Button>
      </Group>
    </Stack>
  );
}
