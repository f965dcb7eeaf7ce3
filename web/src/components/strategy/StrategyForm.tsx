import { Divider, Group, Loader, MultiSelect, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../api/errors';
import { useSaveStrategy, type FlagInEnvironment, type Propose } from '../../data/flags/environment';
import { constraintErrorAt, fromConstraint, hasErrors, toConstraintInput, validateConstraints, type ConstraintDraft, type ConstraintErrors } from '../../logic/constraints';
import {
  defaultParameters, parameterErrorAt, parametersFromJson, stickinessChoices, toParameters, validateParameters, type ParameterDefinition,
} from '../../logic/strategy-parameters';
import { fromVariant, toVariantInputs, validateVariants, variantErrorAt, type VariantDraft, type VariantErrors } from '../../logic/variants';
import { ConstraintEditor } from '../constraints/ConstraintEditor';
import { useContextFields, useProjectStickiness, useSegments, useStrategyDefinitions } from '../../data/definitions';
import { legalValuesByField } from '../../logic/constraints';
import { ErrorNotice } from '../ErrorNotice';
import { EditorFooter } from '../flags/EditorFooter';
import { VariantsFields } from '../variants/VariantsFields';
import { StrategyParameters } from './StrategyParameters';

/** A strategy as the flag page hands it to the form for editing (the fields of GraphQL `FeatureStrategy`). */
export interface EditedStrategy {
  id: string;
  name: string;
  title?: string | null;
  disabled: boolean;
  parameters: unknown;
  constraints: Array<{ contextName: string; operator: string; values?: string[] | null; value?: string | null; caseInsensitive: boolean; inverted: boolean }>;
  segmentIds: number[];
  variants: Array<{ name: string; weight: number; weightType: string; stickiness: string; payload?: { type: string; value: string } | null }>;
}

export interface StrategyFormProps {
  /** The flag and environment the strategy belongs to. */
  at: FlagInEnvironment;
  /** The strategy to edit; absent to add a new one. */
  strategy?: EditedStrategy;
  /** Called once the strategy was saved (and the flag read again), or the user cancelled. */
  onClose(): void;
  /** Where change requests guard the environment: the strategy becomes a change of the user's draft, and the button says so. */
  propose?: Propose;
}

/** The service's refusal details, placed on the fields their paths name. */
interface PlacedErrors {
  name?: string;
  title?: string;
  segments?: string;
  parameters: Record<string, string>;
  constraints: ConstraintErrors[];
  variants: VariantErrors[];
  variantList?: string;
}
const NO_ERRORS: PlacedErrors = { parameters: {}, constraints: [], variants: [] };

/**
 * The add/edit form of one strategy: the strategy type, its parameters (rollout slider, stickiness, group id, ...), the
 * constraint editor, segments and strategy variants. It sends addFeatureStrategy/updateFeatureStrategy itself and
 * shows the service's refusals next to what caused them.
 */
export function StrategyForm({ at, strategy, onClose, propose }: StrategyFormProps) {
  const { project, feature: featureName } = at;
  const definitions = useStrategyDefinitions();
  const fields = useContextFields();
  const segments = useSegments(project);
  const projectStickiness = useProjectStickiness(project);

  const [name, setName] = useState(strategy?.name ?? 'flexibleRollout');
  const [title, setTitle] = useState(strategy?.title ?? '');
  const [disabled, setDisabled] = useState(strategy?.disabled ?? false);
  const [parameters, setParameters] = useState<Record<string, string>>(() =>
    strategy ? parametersFromJson(strategy.parameters) : defaultParameters('flexibleRollout', [], { featureName, stickiness: 'default' }));
  const [stickinessTouched, setStickinessTouched] = useState(!!strategy);
  const [constraints, setConstraints] = useState<ConstraintDraft[]>(() => (strategy?.constraints ?? []).map(fromConstraint));
  const [segmentIds, setSegmentIds] = useState<string[]>(() => (strategy?.segmentIds ?? []).map(String));
  const [variants, setVariants] = useState<VariantDraft[]>(() => (strategy?.variants ?? []).map(fromVariant));
  const [attempted, setAttempted] = useState(false);
  const [placed, setPlaced] = useState<PlacedErrors>(NO_ERRORS);

  // A new rollout follows the project's default stickiness once it is known, unless the user already chose one.
  useEffect(() => {
    if (!stickinessTouched && name === 'flexibleRollout') setParameters((p) => ({ ...p, stickiness: projectStickiness }));
  }, [projectStickiness, stickinessTouched, name]);

  const definition = definitions.data?.find((d) => d.name === name);
  const declared: ParameterDefinition[] = definition?.parameters ?? [];
  // Deprecated types are not offered for new strategies; the one being edited stays selectable.
  const typeData = (definitions.data ?? [])
    .filter((d) => !d.deprecated || d.name === strategy?.name)
    .map((d) => ({ value: d.name, label: `${d.displayName || d.name}${d.deprecated ? ' (deprecated)' : ''}` }));
  const stickiness = stickinessChoices(fields.data ?? [], parameters.stickiness);
  const legal = useMemo(() => legalValuesByField(fields.data), [fields.data]);

  const validation = {
    parameters: validateParameters(declared, parameters),
    constraints: validateConstraints(constraints, fields.data ? legal : new Map()),
    variants: validateVariants(variants),
  };
  const valid = Object.keys(validation.parameters).length === 0 && !validation.constraints.some(hasErrors) && validation.variants.ok;

  const save = useSaveStrategy(at, propose);
  const send = () => save.mutate({
    ...(strategy ? { id: strategy.id } : {}),
    name,
    title: title.trim() || null,
    disabled,
    parameters: toParameters(declared, parameters),
    constraints: constraints.map(toConstraintInput),
    segments: segmentIds.map(Number),
    variants: toVariantInputs(variants, false),
  }, { onSuccess: onClose, onError: (error) => setPlaced(placeErrors(error)) });

  // Any edit takes the service's old complaints away (they were about what was sent).
  const edited = <T,>(set: (v: T) => void) => (v: T) => { set(v); setPlaced(NO_ERRORS); };
  const shown = <T extends object>(own: T | undefined, server: T | undefined): T => ({ ...(attempted ? own : {}), ...server }) as T;

  if (definitions.isPending) return <Group justify="center" p="lg"><Loader size="sm" aria-label="Loading strategy types" /></Group>;

  return (
    <Stack gap="md">
      <ErrorNotice error={definitions.error} title="The strategy types could not be read" />
      <Group grow align="flex-start">
        <Select
          label="Strategy type"
          data={typeData}
          value={name}
          onChange={(v) => {
            if (!v || v === name) return;
            const params = definitions.data?.find((d) => d.name === v)?.parameters ?? [];
            setName(v);
            setParameters(v === strategy?.name ? parametersFromJson(strategy.parameters) : defaultParameters(v, params, { featureName, stickiness: projectStickiness }));
            setPlaced(NO_ERRORS);
          }}
          allowDeselect={false}
          error={placed.name}
          description={definition?.description || undefined}
        />
        <TextInput label="Title" description="Optional: what this strategy is for" value={title}
          onChange={(e) => edited(setTitle)(e.currentTarget.value)} error={placed.title} maxLength={255} />
      </Group>
      <Switch label="Disabled" description="A disabled strategy is kept but not evaluated" checked={disabled} onChange={(e) => edited(setDisabled)(e.currentTarget.checked)} />

      <Divider />
      <div>
        <Title order={3} size="h5" mb={4}>Parameters</Title>
        <StrategyParameters
          strategy={name}
          definition={declared}
          values={parameters}
          errors={shown(validation.parameters, placed.parameters)}
          stickiness={stickiness}
          onChange={(next) => {
            if (next.stickiness !== parameters.stickiness) setStickinessTouched(true);
            edited(setParameters)(next);
          }}
        />
      </div>

      <Divider />
      <ConstraintEditor
        value={constraints}
        onChange={edited(setConstraints)}
        errors={constraints.map((_, i) => shown(validation.constraints[i], placed.constraints[i]))}
      />

      <Divider />
      <div>
        <Title order={3} size="h5">Segments</Title>
        <Text size="sm" c="dimmed" mb={4}>Saved sets of constraints; the context must match every segment chosen.</Text>
        <MultiSelect
          aria-label="Segments"
          placeholder={segments.data?.length === 0 ? 'No segments exist yet' : 'Choose segments'}
          data={(segments.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          value={segmentIds}
          onChange={edited(setSegmentIds)}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear segments' }}
          error={placed.segments}
        />
        <ErrorNotice error={segments.error} title="The segments could not be read" />
      </div>

      <Divider />
      <VariantsFields
        title="Strategy variants"
        description="Optional: the variants handed out when this strategy enables the flag (instead of the flag's own)."
        value={variants}
        onChange={edited(setVariants)}
        errors={variants.map((_, i) => shown(validation.variants.variants[i], placed.variants[i]))}
        listError={placed.variantList}
        stickiness={stickiness}
        defaultStickiness={parameters.stickiness || projectStickiness}
        withOverrides={false}
        fields={fields.data ?? []}
      />

      <EditorFooter
        mutation={save}
        drafting={!!propose}
        problem={attempted && !valid && <Text size="sm" c="red" role="alert">Some fields need attention (marked above) before the strategy can be saved.</Text>}
        onCancel={onClose}
        onSave={() => {
          setAttempted(true);
          if (valid) send();
        }}
      />
    </Stack>
  );
}

function placeErrors(error: unknown): PlacedErrors {
  const out: PlacedErrors = { parameters: {}, constraints: [], variants: [] };
  if (!(error instanceof ApiError)) return out;
  for (const d of error.details) {
    if (!d.path) continue;
    const top = d.path.split(/[./]/)[0];
    const constraint = constraintErrorAt(d.path);
    const variant = variantErrorAt(d.path);
    const parameter = parameterErrorAt(d.path);
    if (top === 'name') out.name = d.message;
    else if (top === 'title') out.title = d.message;
    else if (top === 'segments') out.segments = d.message;
    else if (parameter) out.parameters[parameter] = d.message;
    else if (constraint) out.constraints[constraint.index] = { ...out.constraints[constraint.index], [constraint.field]: d.message };
    else if (variant && variant.index !== null && variant.field) out.variants[variant.index] = { ...out.variants[variant.index], [variant.field]: d.message };
    else if (variant) out.variantList = d.message;
  }
  return out;
}
