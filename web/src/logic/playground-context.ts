/**
 * The playground's context form as GraphQL input: the fields the service names at the top level of
 * `PlaygroundContextInput` go there, every other context field goes into `properties`. Blank values are left out
 * (an absent field, not an empty one, is what "not set" means to a constraint).
 */
export interface ContextEntry {
  name: string;
  value: string;
}

export const TOP_LEVEL_FIELDS = ['appName', 'userId', 'sessionId', 'remoteAddress', 'currentTime', 'environment'] as const;
const TOP_LEVEL: ReadonlySet<string> = new Set(TOP_LEVEL_FIELDS);

export interface ContextInput {
  appName: string;
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  currentTime?: string;
  environment?: string;
  properties?: Record<string, string>;
}

/** `lists`: the advanced form, where each value is a comma-separated list, sent tidied (`a, b` as `a,b`). */
export function toContextInput(appName: string, entries: readonly ContextEntry[], lists = false): ContextInput {
  const tidy = (value: string) => (lists ? splitValues(value).join(',') : value.trim());
  const context: ContextInput = { appName: tidy(appName) };
  const properties: Record<string, string> = {};
  for (const { name, value } of entries) {
    const v = tidy(value);
    if (!name || !v || name === 'appName') continue;
    if (TOP_LEVEL.has(name)) (context as unknown as Record<string, string>)[name] = v;
    else properties[name] = v;
  }
  if (Object.keys(properties).length) context.properties = properties;
  return context;
}

/** Comma-separated values as the advanced playground expands them: trimmed, blanks and repeats dropped. */
export function splitValues(value: string): string[] {
  return [...new Set(value.split(',').map((v) => v.trim()).filter(Boolean))];
}

/**
 * How many results the advanced form asks for before sending it: environments × (values of each field multiplied)
 * per flag. Shown next to the button so a user sees why a large form is refused.
 */
export function combinationsPerFlag(environments: number, appName: string, entries: readonly ContextEntry[]): number {
  let n = Math.max(1, splitValues(appName).length);
  for (const e of entries) n *= Math.max(1, splitValues(e.value).length);
  return environments * n;
}

/** The context fields a user may still add: those not on the form yet, in the order given. */
export function addableFields(all: readonly string[], present: readonly ContextEntry[]): string[] {
  const taken = new Set(present.map((e) => e.name));
  taken.add('appName');
  return all.filter((name) => !taken.has(name));
}
