import { ActionIcon, Button, Checkbox, Fieldset, Group, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { PARAMETER_TYPES, newParameter, type ParameterDraft, type ParameterKind } from '../../logic/definitions';

const TYPE_LABELS: Record<ParameterKind, string> = {
  string: 'Text', percentage: 'Percentage (0–100)', list: 'List (comma-separated)', number: 'Number', boolean: 'Boolean',
};
const TYPE_DATA = PARAMETER_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));

interface ParametersEditorProps {
  value: ParameterDraft[];
  onChange(next: ParameterDraft[]): void;
  /** Problems of the names by position (logic/definitions parameterProblems), shown once the form was sent. */
  problems: ReadonlyArray<string | undefined>;
}

/** The parameters a custom strategy type declares: name, kind of value, what it does, and whether it must be set. */
export function ParametersEditor({ value, onChange, problems }: ParametersEditorProps) {
  const update = (i: number, patch: Partial<ParameterDraft>) => onChange(value.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <Stack gap="xs">
      <div>
        <Title order={2} size="h5">Parameters</Title>
        <Text size="sm" c="dimmed">{value.length === 0 ? 'None: flags set nothing for this strategy.' : 'What each flag using the strategy sets.'}</Text>
      </div>
      {value.map((p, i) => (
        <Fieldset key={p.key} legend={`Parameter ${i + 1}`} p="sm">
          <Stack gap="xs">
            <Group align="flex-start" gap="sm" wrap="nowrap">
              <TextInput label="Parameter name" value={p.name} error={problems[i]} style={{ flex: 1 }}
                onChange={(e) => update(i, { name: e.currentTarget.value })} />
              <Select label="Parameter type" data={TYPE_DATA} value={p.type} allowDeselect={false} w={220}
                onChange={(v) => v && update(i, { type: v as ParameterKind })} />
              <Tooltip label={`Remove parameter ${i + 1}`}>
                <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove parameter ${i + 1}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
                  <span aria-hidden>✕</span>
                </ActionIcon>
              </Tooltip>
            </Group>
            <TextInput label="Parameter description" value={p.description} onChange={(e) => update(i, { description: e.currentTarget.value })} />
            <Checkbox label="Required" description="A flag's strategy must set it." checked={p.required} onChange={(e) => update(i, { required: e.currentTarget.checked })} />
          </Stack>
        </Fieldset>
      ))}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...value, newParameter()])}>Add parameter</Button>
      </Group>
    </Stack>
  );
}
