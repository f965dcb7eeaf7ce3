import { describe, expect, it } from '@jest/globals';
import {
  addonDraftProblems, addonInput, deliveryStatusColor, deliverySummary, draftFromAddon, emptyAddonDraft, eventChoices, filterLabel, hasProblems,
  MASK, parameterProblem, type ProviderDefinition,
} from '../../web/src/logic/addon-form';

const webhook: ProviderDefinition = {
  name: 'webhook', displayName: 'Webhook', events: ['feature-created', 'feature-updated'],
  parameters: [
    { name: 'url', displayName: 'Webhook URL', type: 'url', description: '', required: true, sensitive: true },
    { name: 'contentType', displayName: 'Content-Type', type: 'text', description: '', required: false, sensitive: false, placeholder: 'application/json' },
    { name: 'authorization', displayName: 'Authorization', type: 'text', description: '', required: false, sensitive: true },
    { name: 'customHeaders', displayName: 'Extra HTTP Headers', type: 'textfield', description: '', required: false, sensitive: true },
  ],
};

describe('web addon form logic', () => {
  it('starts a new addon from the provider: every parameter empty, enabled, no events', () => {
    expect(emptyAddonDraft(webhook)).toEqual({
      provider: 'webhook', description: '', enabled: true, stored: [], events: [], projects: [], environments: [],
      parameters: { url: '', contentType: '', authorization: '', customHeaders: '' },
    });
  });

  it('edits a stored addon with its masked parameters empty and kept, the others as stored', () => {
    const draft = draftFromAddon({
      provider: 'webhook', description: null, enabled: false, parameters: { url: MASK, contentType: 'text/plain', authorization: '' },
      events: ['feature-created'], projects: ['p'], environments: [],
    }, webhook);
    expect(draft).toEqual({
      provider: 'webhook', description: '', enabled: false, stored: ['url'], events: ['feature-created'], projects: ['p'], environments: [],
      parameters: { url: '', contentType: 'text/plain', authorization: '', customHeaders: '' },
    });
    // Left alone, the secret goes back as the mask (the service keeps it) and empty optional ones are left out.
    expect(addonInput(draft, webhook).parameters).toEqual({ url: MASK, contentType: 'text/plain' });
    // Retyped, the new value is sent.
    expect(addonInput({ ...draft, parameters: { ...draft.parameters, url: ' https://new.example/h ' } }, webhook).parameters)
      .toEqual({ url: 'https://new.example/h', contentType: 'text/plain' });
  });

  it('refuses a missing required parameter (unless one is stored), a bad URL, bad headers and no events', () => {
    const fresh = emptyAddonDraft(webhook);
    const problems = addonDraftProblems(fresh, webhook);
    expect(problems).toEqual({ parameters: { url: 'Webhook URL is required.' }, events: expect.stringMatching(/at least one event/) });
    expect(hasProblems(problems)).toBe(true);
    const good = { ...fresh, parameters: { ...fresh.parameters, url: 'http://127.0.0.1:9/hook' }, events: ['feature-created'] };
    expect(hasProblems(addonDraftProblems(good, webhook))).toBe(false);
    expect(hasProblems(addonDraftProblems({ ...fresh, stored: ['url'], events: ['feature-created'] }, webhook))).toBe(false);
    const url = webhook.parameters[0];
    expect(parameterProblem(url, 'ftp://x', false)).toMatch(/http or https/);
    expect(parameterProblem(url, '/relative', false)).toMatch(/absolute/);
    const headers = webhook.parameters[3];
    expect(parameterProblem(headers, '{"X-Team":"flags"}', false)).toBeNull();
    expect(parameterProblem(headers, '{"X-Team":1}', false)).toMatch(/JSON object/);
    expect(parameterProblem(headers, '[1]', false)).toMatch(/JSON object/);
    expect(parameterProblem(headers, 'nope', false)).toMatch(/JSON object/);
  });

  it('sends the draft as the service takes it: trimmed, de-duplicated, null for no description', () => {
    const draft = { ...emptyAddonDraft(webhook), description: '  ', parameters: { url: 'https://h.example', contentType: '', authorization: 'Bearer x', customHeaders: '' },
      events: ['feature-created', 'feature-created'], projects: ['a', 'a'], environments: ['production'] };
    expect(addonInput(draft, webhook)).toEqual({
      provider: 'webhook', description: null, enabled: true, parameters: { url: 'https://h.example', authorization: 'Bearer x' },
      events: ['feature-created'], projects: ['a'], environments: ['production'],
    });
  });

  it('offers the provider\'s events and keeps chosen ones it does not list', () => {
    expect(eventChoices(webhook, ['feature-created', 'project-created'])).toEqual(['feature-created', 'feature-updated', 'project-created']);
  });

  it('sums up a delivery by its last attempt', () => {
    expect(deliverySummary([])).toEqual({ attempts: 0, lastStatusCode: null, lastError: null });
    expect(deliverySummary([
      { attempt: 2, at: '2030-01-01T00:00:02Z', statusCode: 200, error: null, durationMs: 3 },
      { attempt: 1, at: '2030-01-01T00:00:01Z', statusCode: 503, error: 'the receiver answered 503', durationMs: 5 },
    ])).toEqual({ attempts: 2, lastStatusCode: 200, lastError: null });
    expect(deliverySummary([{ attempt: 1, at: '2030-01-01T00:00:01Z', statusCode: null, error: 'connection refused', durationMs: 1 }]))
      .toEqual({ attempts: 1, lastStatusCode: null, lastError: 'connection refused' });
    expect(['delivered', 'failed', 'pending', 'skipped'].map(deliveryStatusColor)).toEqual(['green', 'red', 'yellow', 'gray']);
    expect(filterLabel([], 'All projects')).toBe('All projects');
    expect(filterLabel(['a', 'b'], 'All projects')).toBe('a, b');
  });
});
