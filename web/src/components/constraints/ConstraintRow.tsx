import '@mantine/dates/styles.css';
import { Fieldset, Group, Select, Stack, Switch, Text } from '@mantine/core';
import type { ContextFieldInfo } from '../../data/definitions';
import { OPERATORS, OPERATOR_LABELS, takesCaseInsensitive, type ConstraintDraft, type ConstraintErrors } from '../../logic/constraints';
import { ConstraintValue } from './ConstraintValue';
import { RemoveButton } from './EditableList';

const OPERATOR_DATA = OPERATORS.map((op) => ({ value: op, label: `${OPERATOR_LABELS[op]}  ·  ${op}` }));

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
  const n = index + 1;
  // A field the list does not know (deleted since) stays selectable, so the constraint still shows what it holds.
  const fieldData = [
    ...fields.map((f) => ({ value: f.name, label: f.name })),
    ...(c.contextName && !field ? [{ value: c.contextName, label: `${c.contextName} (unknown)` }] : []),
  ];

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
            <ConstraintValue constraint={c} legal={field?.legalValues ?? []} errors={errors} onChange={onChange} />
          </div>
          <RemoveButton label={`Remove constraint ${n}`} onClick={onRemove} />
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
