import { Text } from '@mantine/core';

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
  project: string;
  featureName: string;
  environment: string;
  /** The strategy to edit; absent to add a new one. */
  strategy?: EditedStrategy;
  /** Called once the strategy was saved (after the mutation succeeded), or the user cancelled. */
  onDone(saved: boolean): void;
}

/**
 * The add/edit form of one strategy: the strategy type, its parameters (rollout slider, stickiness, group id, ...), the
 * constraint editor, segments and strategy variants. It sends addFeatureStrategy/updateFeatureStrategy itself and
 * shows the service's refusals next to what caused them. (Placeholder until built.)
 */
export function StrategyForm(_props: StrategyFormProps) {
  return <Text>Strategy form: not built yet.</Text>;
}
