import { assertEventTypes } from '../events/event-types';
import { ValidationError, type ErrorDetail } from '../errors';
import { templateProblem } from './formats';
import type { AddonDefinition } from './addon.shapes';
import { MASK, PROVIDER_BY_NAME, PROVIDERS } from './providers';

/** The checks of what an addon is given: its provider, its parameters against the provider's, and its event types. */

/** RFC 9110 token (a header name) and a header value without control characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,200}$/;
const HEADER_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]{0,8000}$/;

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * The parameters to store: each one a parameter of the provider, its text valid for its type; a sensitive one sent back
 * as the mask keeps the stored value; every required one present. Every problem is listed, under `parameters/<name>`.
 */
export function checkedParameters(provider: AddonDefinition, sent: Record<string, string | number | boolean>, stored: Record<string, unknown> | undefined): Record<string, string | number | boolean> {
  const definitions = new Map(provider.parameters.map((p) => [p.name, p]));
  const out = new Map<string, string | number | boolean>();
  const problems: ErrorDetail[] = [];
  for (const [name, raw] of Object.entries(sent)) {
    const at = `parameters/${name}`;
    const definition = definitions.get(name);
    if (!definition) {
      problems.push({ path: at, message: `\`${name}\` is not a parameter of the ${provider.name} provider. Its parameters are: ${provider.parameters.map((p) => p.name).join(', ')}.` });
      continue;
    }
    let value = raw;
    if (value === MASK && definition.sensitive) {
      const kept = stored?.[name];
      if (typeof kept !== 'string' && typeof kept !== 'number' && typeof kept !== 'boolean') {
        problems.push({ path: at, message: `\`${name}\` was sent as the mask ${MASK}, but no value is stored to keep: send the value itself.` });
        continue;
      }
      value = kept;
    }
    if (definition.type === 'url' && value !== '' && (typeof value !== 'string' || !isHttpUrl(value))) {
      problems.push({ path: at, message: `\`${name}\` must be an absolute http or https URL.` });
      continue;
    }
    if ((name === 'contentType' || name === 'authorization') && typeof value === 'string' && !HEADER_VALUE.test(value)) {
      problems.push({ path: at, message: `\`${name}\` is sent as an HTTP header value: it may not hold line breaks or control characters.` });
      continue;
    }
    if (name === 'bodyTemplate' && typeof value === 'string' && value !== '') {
      const problem = templateProblem(value);
      if (problem) {
        problems.push({ path: at, message: `\`bodyTemplate\` is not a valid Mustache template: ${problem}` });
        continue;
      }
    }
    if (name === 'customHeaders' && value !== '') {
      let headers: unknown;
      try {
        headers = typeof value === 'string' ? JSON.parse(value) : undefined;
      } catch {
        headers = undefined;
      }
      if (headers === null || typeof headers !== 'object' || Array.isArray(headers)
        || !Object.entries(headers).every(([k, h]) => HEADER_NAME.test(k) && typeof h === 'string' && HEADER_VALUE.test(h))) {
        problems.push({ path: at, message: '`customHeaders` must be a JSON object of header names and text values, for example {"X-Team": "flags"}.' });
        continue;
      }
    }
    out.set(name, value);
  }
  for (const definition of provider.parameters) {
    const value = out.get(definition.name);
    if (definition.required && (value === undefined || value === '') && !problems.some((p) => p.path === `parameters/${definition.name}`)) {
      problems.push({ path: `parameters/${definition.name}`, message: `The ${provider.name} provider requires the \`${definition.name}\` parameter (${definition.displayName}).` });
    }
  }
  if (problems.length > 0) throw ValidationError.of(problems);
  return Object.fromEntries(out);
}

export function checkedEvents(events: string[]): string[] {
  assertEventTypes(events, 'events', 'Addons can listen to the event types the event log lists.');
  return [...new Set(events)];
}

export function knownProvider(name: string): AddonDefinition {
  const provider = PROVIDER_BY_NAME.get(name);
  if (!provider) throw ValidationError.single('provider', `The \`provider\` property must name a known provider: ${PROVIDERS.map((p) => p.name).join(', ')}. You sent ${JSON.stringify(name)}.`);
  return provider;
}
