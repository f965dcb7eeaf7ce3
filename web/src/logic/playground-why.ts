/**
 * Why a flag evaluated as it did, in one sentence, from the playground's answer. The order of the checks is the
 * evaluator's: the environment switch first, then parent dependencies, then the strategies in order.
 */
export interface WhyConstraint {
  contextName: string;
  operator: string;
  inverted: boolean;
  result: boolean;
}

export interface WhySegment {
  name: string;
  result: boolean;
}

export interface WhyStrategy {
  name: string;
  title?: string | null;
  disabled: boolean;
  result: { enabled: unknown; evaluationStatus: string };
  constraints: WhyConstraint[];
  segments: WhySegment[];
}

export interface WhyFeature {
  isEnabled: boolean;
  isEnabledInCurrentEnvironment: boolean;
  hasUnsatisfiedDependency: boolean;
  strategies: { result: unknown; data: WhyStrategy[] };
}

/** true, false or 'unknown' as the service reports a result (a JSON value). */
export function resultWord(result: unknown): 'true' | 'false' | 'unknown' {
  if (result === true) return 'true';
  if (result === false) return 'false';
  return 'unknown';
}

export function strategyLabel(s: Pick<WhyStrategy, 'name' | 'title'>, index: number): string {
  return `${index + 1}. ${s.title ? `${s.title} (${s.name})` : s.name}`;
}

/** What kept a strategy from enabling the flag: its first failed constraint or segment, or its own evaluation. */
export function strategyBlocker(s: WhyStrategy): string | null {
  if (s.disabled) return 'the strategy is disabled';
  if (s.result.evaluationStatus === 'incomplete') return 'the strategy type is unknown to the evaluator';
  const failed = s.constraints.find((c) => !c.result);
  if (failed) return `constraint ${failed.contextName} ${failed.inverted ? 'NOT ' : ''}${failed.operator} failed`;
  const segment = s.segments.find((g) => !g.result);
  if (segment) return `segment ${segment.name} did not match`;
  if (s.result.enabled === false) return 'its own rule (for example the rollout percentage) left this context out';
  return null;
}

export function explain(f: WhyFeature, environment: string): string {
  if (!f.isEnabledInCurrentEnvironment) return `Disabled: the flag is switched off in ${environment}.`;
  if (f.hasUnsatisfiedDependency) return 'Disabled: a parent flag it depends on is not satisfied.';
  const strategies = f.strategies.data;
  if (strategies.length === 0) return f.isEnabled ? 'Enabled: switched on with no strategy, so for everyone.' : 'Disabled: no strategy.';
  const winner = strategies.findIndex((s) => !s.disabled && s.result.enabled === true);
  if (f.isEnabled && winner >= 0) return `Enabled by strategy ${strategyLabel(strategies[winner], winner)}.`;
  if (f.isEnabled) return 'Enabled.';
  if (resultWord(f.strategies.result) === 'unknown') return 'Unknown: no strategy enabled it and one could not be evaluated here.';
  const active = strategies.map((s, i) => ({ s, i })).filter(({ s }) => !s.disabled);
  if (active.length === 0) return 'Disabled: every strategy is disabled.';
  const reasons = active.map(({ s, i }) => `${strategyLabel(s, i)}: ${strategyBlocker(s) ?? 'did not enable it'}`);
  return `Disabled: no strategy enabled it (${reasons.join('; ')}).`;
}
