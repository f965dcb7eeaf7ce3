import { Alert, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { distributeWeights, emptyVariant, formatPercent, type VariantDraft, type VariantErrors } from '../../logic/variants';
import type { ContextFieldInfo } from '../../data/definitions';
import { VariantRow } from './VariantRow';

export interface VariantsFieldsProps {
  value: VariantDraft[];
  onChange(next: VariantDraft[]): void;
  /** Messages per variant, by position (validation before sending and the service's refusal details). */
  errors?: ReadonlyArray<VariantErrors | undefined>;
  /** A message about the list as a whole, from the service. */
  listError?: string;
  stickiness: string[];
  /** The stickiness a new variant starts with. */
  defaultStickiness: string;
  withOverrides: boolean;
  fields: readonly ContextFieldInfo[];
  title: string;
  description: string;
}

/**
 * A list of variants with their weights shared live: fixed ones keep theirs, variable ones split what is left, and
 * the total shown is always 100% unless the fixed weights pass it (then it says so). Used for a flag's variants in
 * an environment and for a strategy's variants.
 */
export function VariantsFields({ value, onChange, errors = [], listError, stickiness, defaultStickiness, withOverrides, fields, title, description }: VariantsFieldsProps) {
  const distribution = distributeWeights(value);
  const problem = distribution.error ?? listError;
  const update = (i: number, patch: Partial<VariantDraft>) => onChange(value.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const colors = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'];

  return (
    <Stack gap="xs">
      <div>
        <Title order={3} size="h5">{title}</Title>
        <Text size="sm" c="dimmed">{description}</Text>
      </div>
      {value.length > 0 && (
        <Stack gap={4}>
          <Progress.Root size="lg" aria-hidden>
            {distribution.weights.map((w, i) => (
              <Progress.Section key={value[i].key} value={Math.min(100, w / 10)} color={colors[i % colors.length]} />
            ))}
          </Progress.Root>
          <Text size="sm" role="status" aria-live="polite" c={distribution.error ? 'red' : undefined}>
            {`Total: ${formatPercent(distribution.total)}`}
            {' · '}
            {value.map((v, i) => `${v.name.trim() || `variant ${i + 1}`} ${formatPercent(distribution.weights[i])}`).join(', ')}
          </Text>
        </Stack>
      )}
      {problem && <Alert color="red" variant="light" p="xs">{problem}</Alert>}
      {value.map((v, i) => (
        <VariantRow
          key={v.key}
          index={i}
          variant={v}
          resolvedWeight={distribution.weights[i]}
          errors={errors[i]}
          stickiness={stickiness.includes(v.stickiness) ? stickiness : [...stickiness, v.stickiness]}
          withOverrides={withOverrides}
          fields={fields}
          onChange={(patch) => update(i, patch)}
          onRemove={() => onChange(value.filter((_, j) => j !== i))}
        />
      ))}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...value, emptyVariant('', value[0]?.stickiness ?? defaultStickiness)])}>Add variant</Button>
      </Group>
    </Stack>
  );
}
