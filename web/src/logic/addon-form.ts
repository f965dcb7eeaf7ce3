/**
 * The addon form's rules (issue 29, item 4), without React: a draft from a provider's parameter definitions or from a
 * stored addon, what is refused before sending, the input sent, and a delivery's summary.
 *
 * Sensitive parameters are write-only: every read gives them as the mask `*****`. The form shows a stored one as
 * "set" with an empty field; left empty it is sent back as the mask, which tells the service to keep the stored value.
 */

export const MASK = '*****';

export interface ParameterDefinition {
  name: string;
  displayName: string;
  /** url, text, textfield or list. */
  type: string;
  description: string;
  required: boolean;
  sensitive: boolean;
  placeholder?: string | null;
}

export interface ProviderDefinition {
  name: string;
  displayName: string;
  events: string[];
  parameters: ParameterDefinition[];
}

export interface AddonDraft {
  provider: string;
  description: string;
  enabled: boolean;
  /** What the form's fields hold, by parameter name ('' for empty). */
  parameters: Record<string, string>;
  /** Sensitive parameters with a stored value: kept unless a new value is typed. */
  stored: string[];
  events: string[];
  /** Empty for every project. */
  projects: string[];
  /** Empty for every environment. */
  environments: string[];
}

/** A new addon of `provider`: every field empty, enabled, listening to nothing yet. */
export function emptyAddonDraft(provider: ProviderDefinition): AddonDraft {
  return {
    provider: provider.name, description: '', enabled: true, stored: [], events: [], projects: [], environments: [],
    parameters: Object.fromEntries(provider.parameters.map((p) => [p.name, ''])),
  };
}

export interface StoredAddon {
  provider: string;
  description?: string | null;
  enabled: boolean;
  parameters: unknown;
  events: string[];
  projects: string[];
  environments: string[];
}

/** The draft to edit a stored addon: its values, with its masked (sensitive, set) parameters empty and kept. */
export function draftFromAddon(addon: StoredAddon, provider: ProviderDefinition | undefined): AddonDraft {
  const given = addon.parameters && typeof addon.parameters === 'object' ? (addon.parameters as Record<string, unknown>) : {};
  const parameters: Record<string, string> = {};
  const stored: string[] = [];
  const names = new Set([...(provider?.parameters.map((p) => p.name) ?? []), ...Object.keys(given)]);
  for (const name of names) {
    const value = given[name];
    const sensitive = provider?.parameters.find((p) => p.name === name)?.sensitive ?? false;
    if (sensitive && value === MASK) {
      stored.push(name);
      parameters[name] = '';
    } else {
      parameters[name] = value === undefined || value === null ? '' : String(value);
    }
  }
  return {
    provider: addon.provider, description: addon.description ?? '', enabled: addon.enabled, parameters, stored,
    events: [...addon.events], projects: [...addon.projects], environments: [...addon.environments],
  };
}

const isHttpUrl = (text: string): boolean => {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

/** What is wrong with one parameter's value as typed (the service checks the same and says so too); null when fine. */
export function parameterProblem(definition: ParameterDefinition, value: string, kept: boolean): string | null {
  const text = value.trim();
  if (text === '') return definition.required && !kept ? `${definition.displayName} is required.` : null;
  if (definition.type === 'url' && !isHttpUrl(text)) return 'An absolute http or https URL, such as https://example.com/hook.';
  if (definition.name === 'customHeaders') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
      return 'A JSON object of header names and text values, such as {"X-Team": "flags"}.';
    }
  }
  return null;
}

export interface AddonDraftProblems {
  parameters: Record<string, string>;
  events?: string;
}

/** Every problem of the draft, by field; `hasProblems` says whether there is any. */
export function addonDraftProblems(draft: AddonDraft, provider: ProviderDefinition): AddonDraftProblems {
  const parameters: Record<string, string> = {};
  for (const definition of provider.parameters) {
    const problem = parameterProblem(definition, draft.parameters[definition.name] ?? '', draft.stored.includes(definition.name));
    if (problem) parameters[definition.name] = problem;
  }
  // The service would accept none, but an addon that listens to no event never sends anything.
  return { parameters, ...(draft.events.length === 0 ? { events: 'Choose at least one event: the addon is sent only the events it listens to.' } : {}) };
}

export const hasProblems = (p: AddonDraftProblems): boolean => Object.keys(p.parameters).length > 0 || p.events !== undefined;

/** The draft's problems as a form's errors, by the path of the field each is about (`parameters.url`, `events`). */
export function addonFormErrors(draft: AddonDraft, provider: ProviderDefinition): Record<string, string> {
  const problems = addonDraftProblems(draft, provider);
  const errors = Object.fromEntries(Object.entries(problems.parameters).map(([name, message]) => [`parameters.${name}`, message]));
  return problems.events ? { ...errors, events: problems.events } : errors;
}

export interface AddonInputVariables {
  provider: string;
  description: string | null;
  enabled: boolean;
  parameters: Record<string, string>;
  events: string[];
  projects: string[];
  environments: string[];
}

/**
 * The createAddon / updateAddon input: the provider's parameters that have a value (trimmed), a stored sensitive one
 * left empty as the mask (kept by the service), empty optional ones left out (the service drops them).
 */
export function addonInput(draft: AddonDraft, provider: ProviderDefinition): AddonInputVariables {
  const parameters: Record<string, string> = {};
  for (const definition of provider.parameters) {
    const value = (draft.parameters[definition.name] ?? '').trim();
    if (value !== '') parameters[definition.name] = value;
    else if (definition.sensitive && draft.stored.includes(definition.name)) parameters[definition.name] = MASK;
  }
  return {
    provider: provider.name,
    description: draft.description.trim() === '' ? null : draft.description.trim(),
    enabled: draft.enabled,
    parameters,
    events: [...new Set(draft.events)],
    projects: [...new Set(draft.projects)],
    environments: [...new Set(draft.environments)],
  };
}

/** The events the form offers: the provider's, and any already chosen that it does not list (kept, not lost). */
export function eventChoices(provider: ProviderDefinition, chosen: readonly string[]): string[] {
  return [...provider.events, ...chosen.filter((e) => !provider.events.includes(e))];
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  statusCode?: number | null;
  error?: string | null;
  durationMs: number;
}

export interface DeliverySummary {
  attempts: number;
  /** The receiver's HTTP status on the last attempt; null when none answered or nothing was tried. */
  lastStatusCode: number | null;
  /** Why the last attempt failed; null when it succeeded or nothing was tried. */
  lastError: string | null;
}

/** A delivery's attempts in one line's worth: how many, and what the last one got. */
export function deliverySummary(attempts: readonly DeliveryAttempt[]): DeliverySummary {
  const last = [...attempts].sort((a, b) => a.attempt - b.attempt).at(-1);
  return { attempts: attempts.length, lastStatusCode: last?.statusCode ?? null, lastError: last?.error ?? null };
}

/** The badge colour of a delivery status (the text says the status; the colour only helps). */
export function deliveryStatusColor(status: string): string {
  if (status === 'delivered') return 'green';
  if (status === 'failed') return 'red';
  if (status === 'pending') return 'yellow';
  return 'gray';
}

/** "All" for an empty filter list, else the names. */
export const filterLabel = (names: readonly string[], all: string): string => (names.length === 0 ? all : names.join(', '));
