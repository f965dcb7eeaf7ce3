import { Text } from '@mantine/core';

/** A feature environment variant (the fields of GraphQL `FeatureVariant`). */
export interface EditedVariant {
  name: string;
  weight: number;
  weightType: string;
  stickiness: string;
  payload?: { type: string; value: string } | null;
  overrides?: Array<{ contextName: string; values: string[] }> | null;
}

export interface FeatureVariantsEditorProps {
  project: string;
  featureName: string;
  environment: string;
  variants: EditedVariant[];
  /** Called once the variants were saved (after the mutation succeeded), or the user cancelled. */
  onDone(saved: boolean): void;
}

/**
 * Edits a flag's variants in one environment: weights that always add up to 100%, stickiness, payloads (JSON checked
 * before sending), then setFeatureVariants. (Placeholder until built.)
 */
export function FeatureVariantsEditor(_props: FeatureVariantsEditorProps) {
  return <Text>Variants editor: not built yet.</Text>;
}
