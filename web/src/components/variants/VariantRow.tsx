import { ActionIcon, Badge, Button, Fieldset, Group, JsonInput, MultiSelect, NumberInput, SegmentedControl, Select, Stack, TagsInput, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { useState } from 'react';
import {
  emptyOverride, formatPercent, payloadError, percentToPermille, permilleToPercent, type OverrideDraft, type PayloadType, type VariantDraft, type VariantErrors,
} from '../../logic/variants';
import type { ContextFieldInfo } from '../../data/definitions';

const PAYLOAD_DATA = [
  { value: '', label: 'No payload' },
  { value: 'string', label: 'String' },
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
  { value: 'number', label: 'Number' },
];

export interface VariantRowProps {
  index: number;
  variant: VariantDraft;
  /** The weight it gets (per mille), as shared with the others. */
  resolvedWeight: number;
  errors?: VariantErrors;
  stickiness: string[];
  /** Feature variants have overrides; strategy variants do not. */
  withOverrides: boolean;
  fields: readonly ContextFieldInfo[];
  onChange(patch: Partial<VariantDraft>): void;
  onRemove(): void;
}

/** One variant of a flag or a strategy: name, weight (fixed or shared), stickiness, payload and (for flags) overrides. */
export function VariantRow({ index, variant: v, resolvedWeight, errors = {}, stickiness, withOverrides, fields, onChange, onRemove }: VariantRowProps) {
  const n = index + 1;
  const setOverride = (i: number, patch: Partial<OverrideDraft>) => onChange({ overrides: v.overrides.map((o, j) => (j === i ? { ...o, ...patch } : o)) });
  const payloadLabel = 'Payload value';

  return (
    <Fieldset legend={`Variant ${n}${v.name.trim() ? `: ${v.name.trim()}` : ''}`} p="sm">
      <Stack gap="xs">
        <Group align="flex-start" justify="space-between" wrap="nowrap" gap="sm">
          <Group align="flex-start" gap="sm">
            <TextInput label="Name" value={v.name} onChange={(e) => onChange({ name: e.currentTarget.value })} error={errors.name} required w={200} />
            <Stack gap={4}>
              <Text size="sm" fw={500} id={`variant-${v.key}-weight-type`}>Weight type</Text>
              <SegmentedControl
                aria-labelledby={`variant-${v.key}-weight-type`}
                size="xs"
                value={v.weightType}
                onChange={(t) => onChange(t === 'fix' ? { weightType: 'fix', weight: resolvedWeight } : { weightType: 'variable' })}
                data={[{ value: 'variable', label: 'Variable' }, { value: 'fix', label: 'Fixed' }]}
              />
            </Stack>
            {v.weightType === 'fix' ? (
              <FixedWeightInput weight={v.weight} error={errors.weight} onChange={(weight) => onChange({ weight })} />
            ) : (
              <Stack gap={4}>
                <Text size="sm" fw={500}>Weight</Text>
                <Badge size="lg" variant="outline">{formatPercent(resolvedWeight)}</Badge>
              </Stack>
            )}
            <Select label="Stickiness" data={stickiness} value={v.stickiness} onChange={(s) => onChange({ stickiness: s ?? 'default' })} allowDeselect={false} w={160} />
            <Select
              label="Payload type"
              data={PAYLOAD_DATA}
              value={v.payloadType}
              onChange={(t) => onChange({ payloadType: (t ?? '') as PayloadType | '' })}
              allowDeselect={false}
              w={140}
            />
          </Group>
          <Tooltip label={`Remove variant ${n}`}>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove variant ${n}`} onClick={onRemove} mt={26}>
              <span aria-hidden>✕</span>
            </ActionIcon>
          </Tooltip>
        </Group>
        {v.payloadType === 'json' && (
          // JsonInput checks on blur and then shows `validationError` instead of `error`: both carry the parser's words.
          <JsonInput label={payloadLabel} value={v.payloadValue} onChange={(s) => onChange({ payloadValue: s })} error={errors.payload}
            validationError={errors.payload ?? payloadError('json', v.payloadValue) ?? 'Not valid JSON.'}
            autosize minRows={3} maxRows={12} placeholder='{"key": "value"}' />
        )}
        {v.payloadType === 'csv' && (
          <Textarea label={payloadLabel} value={v.payloadValue} onChange={(e) => onChange({ payloadValue: e.currentTarget.value })} error={errors.payload} autosize minRows={2} />
        )}
        {(v.payloadType === 'string' || v.payloadType === 'number') && (
          <TextInput label={payloadLabel} value={v.payloadValue} onChange={(e) => onChange({ payloadValue: e.currentTarget.value })} error={errors.payload}
            inputMode={v.payloadType === 'number' ? 'decimal' : undefined} />
        )}
        {withOverrides && (
          <Stack gap={6}>
            {v.overrides.map((o, i) => {
              const legal = fields.find((f) => f.name === o.contextName)?.legalValues ?? [];
              const which = `override ${i + 1} of variant ${n}`;
              return (
                <Group key={o.key} align="flex-end" gap="sm">
                  <Select label={`Override ${i + 1}: context field`} data={fields.map((f) => f.name)} value={o.contextName || null}
                    onChange={(c) => setOverride(i, { contextName: c ?? '', values: [] })} searchable allowDeselect={false} w={220} />
                  {legal.length > 0 ? (
                    <MultiSelect label={`Override ${i + 1}: values`} data={legal.map((l) => l.value)} value={o.values}
                      onChange={(values) => setOverride(i, { values })} searchable style={{ flex: 1 }} />
                  ) : (
                    <TagsInput label={`Override ${i + 1}: values`} value={o.values} onChange={(values) => setOverride(i, { values })} style={{ flex: 1 }} />
                  )}
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove ${which}`} mb={6}
                    onClick={() => onChange({ overrides: v.overrides.filter((_, j) => j !== i) })}>
                    <span aria-hidden>✕</span>
                  </ActionIcon>
                </Group>
              );
            })}
            {errors.overrides && <Text size="sm" c="red">{errors.overrides}</Text>}
            <Group>
              <Button variant="subtle" size="xs" onClick={() => onChange({ overrides: [...v.overrides, emptyOverride(fields.find((f) => f.name === 'userId')?.name ?? '')] })}
                aria-label={`Add override to variant ${n}`}>
                Add override
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Fieldset>
  );
}

/**
 * A fixed weight typed as a percentage with one decimal. The text is held here, so "12." stays as typed while the
 * draft already holds 120 per mille; a weight changed from outside replaces it.
 */
function FixedWeightInput({ weight, error, onChange }: { weight: number; error?: string; onChange(weight: number): void }) {
  const [text, setText] = useState<string | number>(permilleToPercent(weight));
  const shown = percentToPermille(Number(text) || 0) === weight ? text : permilleToPercent(weight);
  return (
    <NumberInput
      label="Weight"
      value={shown}
      onChange={(p) => {
        setText(p);
        onChange(percentToPermille(typeof p === 'number' ? p : Number(p) || 0));
      }}
      min={0}
      max={100}
      decimalScale={1}
      suffix="%"
      allowNegative={false}
      error={error}
      w={120}
    />
  );
}
