import '@mantine/dates/styles.css';
import { MultiSelect, NumberInput, Stack, TagsInput, Text, TextInput, type TextInputProps } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useEffect, useState } from 'react';
import {
  MAX_VALUE_LENGTH, isNumberText, isSemver, isoToPicker, pickerToIso, regexProblem, valueKind, type ConstraintDraft, type ConstraintErrors,
  type Re2Compiler,
} from '../../logic/constraints';

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

/** The single values typed as text: what each input says and offers. */
const TEXT_INPUTS: Record<'regex' | 'semver', TextInputProps> = {
  regex: {
    label: 'Pattern',
    description: 'RE2 syntax, found anywhere in the value: anchor with ^ and $ to match all of it',
    placeholder: '^beta-\\d+$',
    spellCheck: false,
    autoComplete: 'off',
  },
  semver: { label: 'Version', description: 'x.y.z, optionally with a pre-release (1.2.3-beta.1)', placeholder: '1.2.3' },
};

interface ConstraintValueProps {
  constraint: ConstraintDraft;
  /** The context field's legal values (none: any value). */
  legal: ReadonlyArray<{ value: string; description?: string | null }>;
  errors: ConstraintErrors;
  onChange(patch: Partial<ConstraintDraft>): void;
}

/** The value input a constraint's operator takes: several values, a number, a date, a pattern or a version. */
export function ConstraintValue({ constraint: c, legal, errors, onChange }: ConstraintValueProps) {
  const kind = valueKind(c.operator);
  const re2 = useRe2(kind === 'regex');
  // Number, semver and pattern text is checked as it is typed; the owner's errors (after Save, or the service's) come
  // first.
  const typed = c.value.trim();
  const live = typed === '' ? undefined
    : kind === 'semver' && !isSemver(typed) ? `"${typed}" is not a semantic version (x.y.z, optionally with a pre-release such as 1.2.3-beta.1).`
      : kind === 'number' && !isNumberText(typed) ? `"${typed}" is not a number.`
        : kind === 'regex' && c.value.length > MAX_VALUE_LENGTH ? `A pattern is at most ${MAX_VALUE_LENGTH} characters.`
          : kind === 'regex' && re2 ? regexProblem(c.value, c.caseInsensitive, re2) : undefined;
  const valueError = errors.value ?? live;

  if (kind === 'list' && legal.length > 0) {
    return (
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
    );
  }
  if (kind === 'list') {
    return (
      <TagsInput
        label="Values"
        description="Press Enter after each value"
        value={c.values}
        onChange={(values) => onChange({ values })}
        error={errors.values}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear values' }}
      />
    );
  }
  if (kind === 'number') {
    return <NumberInput label="Number" value={c.value} onChange={(v) => onChange({ value: String(v) })} error={valueError} allowDecimal allowNegative />;
  }
  if (kind === 'date') {
    return (
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
    );
  }
  return <TextInput {...TEXT_INPUTS[kind]} value={c.value} onChange={(e) => onChange({ value: e.currentTarget.value })} error={valueError} />;
}
