import { Group, Input, NumberInput, Select, Slider, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { joinList, splitList, type ParameterDefinition } from '../../logic/strategy-parameters';

interface StrategyParametersProps {
  /** The strategy type (its definition's name). */
  strategy: string;
  definition: readonly ParameterDefinition[];
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  stickiness: string[];
  onChange(values: Record<string, string>): void;
}

/** The labels of the built-in strategies' parameters; custom ones show their declared name. */
const LABELS: Record<string, Record<string, { label: string; description?: string }>> = {
  userWithId: { userIds: { label: 'User ids', description: 'Press Enter after each user id' } },
  remoteAddress: { IPs: { label: 'IP addresses', description: 'Addresses or IPv4 CIDR ranges; press Enter after each' } },
  applicationHostname: { hostNames: { label: 'Host names', description: 'Press Enter after each host name' } },
};

/** The parameter form of one strategy type: the rollout form of flexibleRollout, or one input per declared parameter. */
export function StrategyParameters({ strategy, definition, values, errors, stickiness, onChange }: StrategyParametersProps) {
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });

  if (strategy === 'flexibleRollout') {
    return (
      <Stack gap="sm">
        <Percentage label="Rollout" value={values.rollout ?? '0'} error={errors.rollout} onChange={(v) => set('rollout', v)}
          description="Share of the contexts (after the constraints) that get the flag" />
        <Group grow align="flex-start">
          <Select
            label="Stickiness"
            description="What keeps a user in or out of the rollout"
            data={stickiness}
            value={values.stickiness || 'default'}
            onChange={(v) => set('stickiness', v ?? 'default')}
            allowDeselect={false}
            error={errors.stickiness}
          />
          <TextInput
            label="Group id"
            description="Rollouts with the same group id select the same users"
            value={values.groupId ?? ''}
            onChange={(e) => set('groupId', e.currentTarget.value)}
            error={errors.groupId}
            required
          />
        </Group>
      </Stack>
    );
  }

  if (definition.length === 0) {
    return <Text size="sm" c="dimmed">This strategy has no parameters: it is on for every context that passes the constraints and segments.</Text>;
  }

  return (
    <Stack gap="sm">
      {definition.map((p) => {
        const named = LABELS[strategy]?.[p.name];
        const label = named?.label ?? p.name;
        const description = named?.description ?? (p.description || undefined);
        const value = values[p.name] ?? '';
        const error = errors[p.name];
        switch (p.type) {
          case 'percentage':
            return <Percentage key={p.name} label={label} description={description} value={value || '0'} error={error} onChange={(v) => set(p.name, v)} required={p.required} />;
          case 'list':
            return (
              <TagsInput key={p.name} label={label} description={description ?? 'Press Enter after each value'} value={splitList(value)}
                onChange={(list) => set(p.name, joinList(list))} error={error} required={p.required} clearable clearButtonProps={{ 'aria-label': `Clear ${label}` }} />
            );
          case 'number':
            return <NumberInput key={p.name} label={label} description={description} value={value} onChange={(v) => set(p.name, String(v))} error={error} required={p.required} />;
          case 'boolean':
            return (
              <Switch key={p.name} label={label} description={description} checked={value === 'true'}
                onChange={(e) => set(p.name, String(e.currentTarget.checked))} error={error} />
            );
          default:
            return <TextInput key={p.name} label={label} description={description} value={value} onChange={(e) => set(p.name, e.currentTarget.value)} error={error} required={p.required} />;
        }
      })}
    </Stack>
  );
}

/** A percentage as a slider with a number input beside it: the slider to drag, the input to type an exact value. */
function Percentage({ label, description, value, error, required, onChange }: {
  label: string; description?: string; value: string; error?: string; required?: boolean; onChange(v: string): void;
}) {
  const n = Number(value);
  const numeric = Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0;
  return (
    <Input.Wrapper label={label} description={description} error={error} required={required} labelElement="div">
      <Group gap="md" align="center" wrap="nowrap" mt={4}>
        <Slider
          style={{ flex: 1 }}
          value={numeric}
          onChange={(v) => onChange(String(v))}
          min={0}
          max={100}
          step={1}
          label={(v) => `${v}%`}
          thumbLabel={label}
          marks={[{ value: 0, label: '0%' }, { value: 25, label: '25%' }, { value: 50, label: '50%' }, { value: 75, label: '75%' }, { value: 100, label: '100%' }]}
          mb="md"
        />
        <NumberInput
          aria-label={`${label} percentage`}
          value={value}
          onChange={(v) => onChange(String(v))}
          min={0}
          max={100}
          clampBehavior="strict"
          allowDecimal={false}
          allowNegative={false}
          suffix="%"
          w={100}
          error={!!error}
        />
      </Group>
    </Input.Wrapper>
  );
}
