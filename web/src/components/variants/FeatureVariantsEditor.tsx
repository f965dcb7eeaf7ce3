import { Button, Group, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../api/client';
import { ApiError } from '../../api/errors';
import { graphql } from '../../gql';
import { stickinessChoices } from '../../logic/strategy-parameters';
import { fromVariant, toVariantInputs, validateVariants, variantErrorAt, type VariantErrors, type VariantShape } from '../../logic/variants';
import { ErrorNotice } from '../ErrorNotice';
import { useContextFields } from '../constraints/contextFields';
import { useProjectStickiness } from '../strategy/editorData';
import { VariantsFields } from './VariantsFields';

/** A feature environment variant (the fields of GraphQL `FeatureVariant`). */
export type EditedVariant = VariantShape;

export interface FeatureVariantsEditorProps {
  project: string;
  featureName: string;
  environment: string;
  variants: EditedVariant[];
  /** Called once the variants were saved (after the mutation succeeded), or the user cancelled. */
  onDone(saved: boolean): void;
  /** Where change requests guard the environment: sends the variants as a change of the user's draft instead. */
  propose?(variants: unknown[]): Promise<unknown>;
}

const SetVariantsMutation = graphql(`
  mutation FeatureVariantsEditorSet($input: SetFeatureVariantsInput!) {
    setFeatureVariants(input: $input) { name weight weightType stickiness }
  }
`);

/**
 * Edits a flag's variants in one environment: weights that always add up to 100%, stickiness, payloads (JSON checked
 * before sending), overrides, then setFeatureVariants for that environment alone.
 */
export function FeatureVariantsEditor({ project, featureName, environment, variants, onDone, propose }: FeatureVariantsEditorProps) {
  const [drafts, setDrafts] = useState(() => variants.map(fromVariant));
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ variants: VariantErrors[]; list?: string }>({ variants: [] });
  const fields = useContextFields();
  const projectStickiness = useProjectStickiness(project);

  const save = useMutation({
    mutationFn: () => (propose
      ? propose(toVariantInputs(drafts, true))
      : gql(SetVariantsMutation, { input: { project, feature: featureName, environments: [environment], variants: toVariantInputs(drafts, true) } })),
    onSuccess: () => onDone(true),
    onError: (error) => setServerErrors(placeErrors(error)),
  });

  const validation = validateVariants(drafts);
  const errors = drafts.map((_, i) => ({ ...(attempted ? validation.variants[i] : {}), ...serverErrors.variants[i] }));

  return (
    <Stack gap="md">
      <VariantsFields
        title="Variants"
        description={`What the flag hands out when it is enabled in ${environment}. Fixed weights keep their share; variable ones split what is left.`}
        value={drafts}
        onChange={(next) => { setDrafts(next); setServerErrors({ variants: [] }); }}
        errors={errors}
        listError={serverErrors.list}
        stickiness={stickinessChoices(fields.data ?? [])}
        defaultStickiness={projectStickiness}
        withOverrides
        fields={fields.data ?? []}
      />
      <ErrorNotice error={save.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onDone(false)}>Cancel</Button>
        <Button
          loading={save.isPending}
          onClick={() => {
            setAttempted(true);
            if (validation.ok) save.mutate();
          }}
        >
          {propose ? 'Add to draft' : 'Save'}
        </Button>
      </Group>
    </Stack>
  );
}

/** The service's refusal details that name a variant (`variants/1/payload/value`) placed on its fields. */
function placeErrors(error: unknown): { variants: VariantErrors[]; list?: string } {
  const out: { variants: VariantErrors[]; list?: string } = { variants: [] };
  if (!(error instanceof ApiError)) return out;
  for (const d of error.details) {
    const at = d.path ? variantErrorAt(d.path) : null;
    if (!at) continue;
    if (at.index === null || at.field === null) out.list = d.message;
    else out.variants[at.index] = { ...out.variants[at.index], [at.field]: d.message };
  }
  return out;
}
