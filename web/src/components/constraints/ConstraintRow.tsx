import '@mantine/dates/styles.css';
import { ActionIcon, Fieldset, Group, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, Text, TextInput, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useEffect, useState } from 'react';
import {
  MAX_VALUE_LENGTH, OPERATORS, OPERATOR_LABELS, isNumberText, isSemver, isoToPicker, pickerToIso, regexProblem,
  takesCaseInsensitive, valueKind, type ConstraintDraft, type ConstraintErrors, type Re2Compiler,
} from '../../logic/constraints';
import type { ContextFieldInfo } from './contextFields';

const OPERATOR_DATA = OPERATORS.map((op) => ({ value: op, label: `${OPERATOR_LABELS[op]}  ·  ${op}` }));

/** re2js once loaded: the first REGEX constraint shown loads it (its own chunk), every row after shares it. */
let loadedRe2: Re2Compiler | null = null;

/**
 * RE2 for checking a pattern as it is typed, loaded only when `wanted`; null until it is there (or when loading
 * failed: the service still checks on save).
 */
function useRe2(wanted: boolean): Re2Compiler | null {
  const [re2, setRe2] = useState<Re2Compiler | null>(loadedRe2);
  useEffect(() => {
    if (!wanted || re2) return undefined;
    let mounted = true;
    import('re2js').then((m) => {
      loadedRe2 = m.RE2JS;
      if (mounted) setRe2(m.RE2JS);
    }, () => undefined);
    return () => { mounted = false; };
  }, [wanted, re2]);
  return re2;
}

interface ConstraintRowProps {
  index: number;
  constraint: ConstraintDraft;
  fields: readonly ContextFieldInfo[];
  errors?: ConstraintErrors;
  onChange(patch: Partial<ConstraintDraft>): void;
  onRemove(): void;
}

/** One constraint: context field, operator, the value input its operator takes, and its switches. */
export function ConstraintRow({ index, constraint: c, fields, errors = {}, onChange, onRemove }: ConstraintRowProps) {
  const field = fields.find((f) => f.name === c.contextName);
  const legal = field?.legalValues ?? [];
  const kind = valueKind(c.operator);
  const re2 = useRe2(kind === 'regex');
  const n = index + 1;
  // A field the list does not know (deleted since) stays selectable, so the constraint still shows what it holds.
  const fieldData = [
    ...fields.map((f) => ({ value: f.name, label: f.name })),
    ...(c.contextName && !field ? [{ value: c.contextName, label: `${c.contextName} (unknown)` }] : []),
  ];
  // Number, semver and pattern text is checked as it is typed; the parent's errors (after Save, or the service's) come
  // first.
  const typed = c.value.trim();
  const live = typed === '' ? undefined
    : kind === 'semver' && !isSemver(typed) ? `"${typed}" is not a semantic version (x.y.z, optionally with a pre-release such as 1.2.3-beta.1).`
      : kind === 'number' && !isNumberText(typed) ? `"${typed}" is not a number.`
        : kind === 'regex' && c.value.length > MAX_VALUE_LENGTH ? `A pattern is at most ${MAX_VALUE_LENGTH} characters.`
          : kind === 'regex' && re2 ? regexProblem(c.value, c.caseInsensitive, re2) : undefined;
  const valueError = errors.value ?? live;

  return (
    <Fieldset legend={`Constraint ${n}`} variant="default" p="sm">
      <Stack gap="xs">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <Select
            label="Context field"
            data={fieldData}
            value={c.contextName || null}
            onChange={(v) => onChange({ contextName: v ?? '', values: [] })}
            searchable
            allowDeselect={false}
            error={errors.contextName}
            w={200}
            renderOption={({ option }) => {
              const f = fields.find((x) => x.name === option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {f && f.legalValues.length > 0 && (
                    <Text size="xs" c="dimmed" lineClamp={1}>Legal values: {f.legalValues.map((v) => v.value).join(', ')}</Text>
                  )}
                </Stack>
              );
            }}
          />
          <Select
            label="Operator"
            data={OPERATOR_DATA}
            value={c.operator}
            onChange={(v) => v && onChange({ operator: v })}
            allowDeselect={false}
            error={errors.operator}
            w={260}
            comboboxProps={{ withinPortal: true }}
            maxDropdownHeight={320}
          />
          <div style={{ flex: 1, minWidth: 240 }}>
            {kind === 'list' && legal.length > 0 && (
              <MultiSelect
                label="Values"
                description={`Legal values of ${c.contextName}`}
                data={legal.map((v) => ({ value: v.value, label: v.value }))}
                value={c.values}
                onChange={(values) => onChange({ values })}
                searchable
                error={errors.values}
                renderOption={({ option }) => {
                  const d = legal.find((v) => v.value === option.value)?.description;
                  return <Stack gap={0}><Text size="sm">{option.label}</Text>{d && <Text size="xs" c="dimmed">{d}</Text>}</Stack>;
                }}
              />
            )}
            {kind === 'list' && legal.length === 0 && (
              <TagsInput
                label="Values"
                description="Press Enter after each value"
                value={c.values}
                onChange={(values) => onChange({ values })}
                error={errors.values}
                clearable
                clearButtonProps={{ 'aria-label': 'Clear values' }}
              />
            )}
            {kind === 'number' && (
              <NumberInput
                label="Number"
                value={c.value}
                onChange={(v) => onChange({ value: String(v) })}
                error={valueError}
                allowDecimal
                allowNegative
              />
            )}
            {kind === 'date' && (
              <DateTimePicker
                label="Date and time"
                description="Your local time; compared with the current time of the evaluation"
                placeholder="Pick a date and time"
                value={isoToPicker(c.value)}
                onChange={(v) => onChange({ value: pickerToIso(v) })}
                valueFormat="YYYY-MM-DD HH:mm"
                error={valueError}
                clearable
                clearButtonProps={{ 'aria-label': 'Clear date and time' }}
                submitButtonProps={{ 'aria-label': 'Set date and time' }}
                timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes', 'aria-label': 'Time' }}
                nextLabel="Next month"
                previousLabel="Previous month"
              />
            )}
            {kind === 'regex' && (
              <TextInput
                label="Pattern"
                description="RE2 syntax, found anywhere in the value: anchor with ^ and $ to match all of it"
                placeholder="^beta-\d+$"
                value={c.value}
                onChange={(e) => onChange({ value: e.currentTarget.value })}
                error={valueError}
                spellCheck={false}
                autoComplete="off"
              />
            )}
            {kind === 'semver' && (
              <TextInput
                label="Version"
                description="x.y.z, optionally with a pre-release (1.2.3-beta.1)"
                placeholder="1.2.3"
                value={c.value}
                onChange={(e) => onChange({ value: e.currentTarget.value })}
                error={valueError}
              />
            )}
          </div>
          <Tooltip label={`Remove constraint ${n}`}>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove constraint ${n}`} onClick={onRemove} mt={26}>
              <span aria-hidden>✕</span>
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group gap="lg">
          <Switch label="Not" description="Invert the result" checked={c.inverted} onChange={(e) => onChange({ inverted: e.currentTarget.checked })} />
          {takesCaseInsensitive(c.operator) && (
            <Switch label="Case insensitive" checked={c.caseInsensitive} onChange={(e) => onChange({ caseInsensitive: e.currentTarget.checked })} />
          )}
        </Group>
      </Stack>
    </Fieldset>
  );
}
