/**
 * A strategy's parameters as the form edits them, with no React. Every parameter is a string in the API (lists
 * comma-separated, percentages "0".."100", booleans "true"/"false"); definitions declare their names and kinds.
 */

export type ParameterType = 'string' | 'percentage' | 'list' | 'number' | 'boolean';

export interface ParameterDefinition {
  name: string;
  type: ParameterType | string;
  required: boolean;
  description?: string | null;
}

/** The stickiness choices every project has, before the stickiness-enabled context fields. */
export const BUILT_IN_STICKINESS = ['default', 'userId', 'sessionId', 'random'] as const;

/** Stickiness choices: the built-in ones, then the context fields marked for stickiness, each once. */
export function stickinessChoices(fields: ReadonlyArray<{ name: string; stickiness: boolean }>, current?: string): string[] {
  const out: string[] = [...BUILT_IN_STICKINESS];
  for (const f of fields) if (f.stickiness && !out.includes(f.name)) out.push(f.name);
  if (current && !out.includes(current)) out.push(current);
  return out;
}

export const splitList = (s: string | undefined): string[] => (s ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
export const joinList = (values: readonly string[]): string => values.map((v) => v.trim()).filter((v) => v !== '').join(',');

/** Parameter values read from the API (`JSON`) as strings: numbers and booleans stringified, anything else dropped. */
export function parametersFromJson(json: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!json || typeof json !== 'object' || Array.isArray(json)) return out;
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}

/**
 * The parameters a new strategy of a type starts with: a gradual rollout at 100% with the project's default stickiness
 * and the flag's name as group id (so rollouts of one flag agree), other declared parameters empty (booleans false).
 */
export function defaultParameters(name: string, definition: readonly ParameterDefinition[], ctx: { featureName: string; stickiness: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of definition) {
    out[p.name] = p.type === 'boolean' ? 'false' : p.type === 'percentage' ? '100' : '';
  }
  if (name === 'flexibleRollout') Object.assign(out, { rollout: '100', stickiness: ctx.stickiness || 'default', groupId: ctx.featureName });
  if (definition.some((p) => p.name === 'groupId') && !out.groupId) out.groupId = ctx.featureName;
  return out;
}

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v));

/** What is wrong with each parameter, by name: required ones present, percentages whole numbers 0..100, numbers numbers. */
export function validateParameters(definition: readonly ParameterDefinition[], values: Readonly<Record<string, string>>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of definition) {
    const v = (values[p.name] ?? '').trim();
    const empty = p.type === 'list' ? splitList(v).length === 0 : v === '';
    if (empty) {
      if (p.required) errors[p.name] = p.type === 'list' ? 'Add at least one value.' : 'Required.';
      continue;
    }
    if (p.type === 'percentage' && (!/^\d+$/.test(v) || Number(v) > 100)) errors[p.name] = 'A whole number from 0 to 100.';
    else if (p.type === 'number' && !isNumber(v)) errors[p.name] = `"${v}" is not a number.`;
    else if (p.type === 'boolean' && v !== 'true' && v !== 'false') errors[p.name] = 'true or false.';
  }
  return errors;
}

/**
 * The parameters to send: every declared one (trimmed; lists normalised), plus any other the strategy already had
 * (a definition may have lost a parameter a stored strategy still uses; it is kept, not silently dropped).
 */
export function toParameters(definition: readonly ParameterDefinition[], values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...values };
  for (const p of definition) {
    const v = values[p.name] ?? (p.type === 'boolean' ? 'false' : '');
    out[p.name] = p.type === 'list' ? joinList(splitList(v)) : v.trim();
  }
  return out;
}

/** A refusal's detail path (`parameters/rollout`) as the parameter it names. */
export function parameterErrorAt(path: string): string | null {
  const parts = path.split(/[./]/);
  return parts[0] === 'parameters' && parts[1] ? parts[1] : null;
}
