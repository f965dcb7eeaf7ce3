import { Stack } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../api/errors';
import { useSetVariants, type FlagInEnvironment, type Propose } from '../../data/flags/environment';
import { stickinessChoices } from '../../logic/strategy-parameters';
import { fromVariant, toVariantInputs, validateVariants, variantErrorAt, type VariantErrors, type VariantShape } from '../../logic/variants';
import { EditorFooter } from '../flags/EditorFooter';
import { useContextFields, useProjectStickiness } from '../../data/definitions';
import { VariantsFields } from './VariantsFields';

/** A feature environment variant (the fields of GraphQL `FeatureVariant`). */
export type EditedVariant = VariantShape;

export interface FeatureVariantsEditorProps {
  /** The flag and environment whose variants these are. */
  at: FlagInEnvironment;
  variants: EditedVariant[];
  /** Called once the variants were saved (and the flag read again), or the user cancelled. */
  onClose(): void;
  /** Where change requests guard the environment: sends the variants as a change of the user's draft instead. */
  propose?: Propose;
}

/**
 * Edits a flag's variants in one environment: weights that always add up to 100%, stickiness, payloads (JSON checked
 * before sending), overrides, then setFeatureVariants for that environment alone.
 */
export function FeatureVariantsEditor({ at, variants, onClose, propose }: FeatureVariantsEditorProps) {
  const [drafts, setDrafts] = useState(() => variants.map(fromVariant));
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ variants: VariantErrors[]; list?: string }>({ variants: [] });
  const fields = useContextFields();
  const projectStickiness = useProjectStickiness(at.project);
  const save = useSetVariants(at, propose);

  const validation = validateVariants(drafts);
  const errors = drafts.map((_, i) => ({ ...(attempted ? validation.variants[i] : {}), ...serverErrors.variants[i] }));

  return (
    <Stack gap="md">
      <VariantsFields
        title="Variants"
        description={`What the flag hands out when it is enabled in ${at.environment}. Fixed weights keep their share; variable ones split what is left.`}
        value={drafts}
        onChange={(next) => { setDrafts(next); setServerErrors({ variants: [] }); }}
        errors={errors}
        listError={serverErrors.list}
        stickiness={stickinessChoices(fields.data ?? [])}
        defaultStickiness={projectStickiness}
        withOverrides
        fields={fields.data ?? []}
      />
      <EditorFooter
        mutation={save}
        drafting={!!propose}
        onCancel={onClose}
        onSave={() => {
          setAttempted(true);
          if (validation.ok) save.mutate(toVariantInputs(drafts, true), { onSuccess: onClose, onError: (error) => setServerErrors(placeErrors(error)) });
        }}
      />
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
