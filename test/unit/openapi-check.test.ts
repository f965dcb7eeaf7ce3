import { describe, expect, it } from '@jest/globals';
import { operationFor, responseMismatch } from '../support/openapi-check';

// The response check of the e2e suite (test/support/harness.ts): it must refuse what the document does not say.
describe('the e2e suite’s response check', () => {
  it('finds the route a request reaches as Express does: literal segments first, any case, a trailing slash ignored', () => {
    expect(operationFor('GET', '/api/admin/tag-types/validate')?.key).toBe('GET /api/admin/tag-types/:name');
    expect(operationFor('POST', '/api/admin/tag-types/validate')?.key).toBe('POST /api/admin/tag-types/validate');
    expect(operationFor('GET', '/API/admin/Tags/')?.key).toBe('GET /api/admin/tags');
    expect(operationFor('HEAD', '/api/admin/tags')?.key).toBe('GET /api/admin/tags');
    expect(operationFor('PATCH', '/api/admin/tags')).toBeUndefined();
  });

  it('accepts a documented answer', () => {
    const body = JSON.stringify({ version: 1, tags: [{ type: 'simple', value: 'ab' }] });
    expect(responseMismatch('GET', '/api/admin/tags?x=1', 200, 'application/json; charset=utf-8', body)).toBeUndefined();
    expect(responseMismatch('DELETE', '/api/admin/tags/simple/ab', 200, null, '')).toBeUndefined();
    expect(responseMismatch('GET', '/api/admin/tags', 401, 'application/json', JSON.stringify({ id: 'x', name: 'AuthenticationRequired', message: 'm' }))).toBeUndefined();
  });

  it('refuses an undocumented field, a missing field, a wrong type, an undocumented status, a body where none is documented', () => {
    const tags = (tag: unknown) => JSON.stringify({ version: 1, tags: [tag] });
    expect(responseMismatch('GET', '/api/admin/tags', 200, 'application/json', tags({ type: 'simple', value: 'ab', extra: 1 }))).toMatch(/additional properties/);
    expect(responseMismatch('GET', '/api/admin/tags', 200, 'application/json', tags({ type: 'simple' }))).toMatch(/required property 'value'/);
    expect(responseMismatch('GET', '/api/admin/tags', 200, 'application/json', tags({ type: 'simple', value: 3 }))).toMatch(/must be string/);
    expect(responseMismatch('GET', '/api/admin/tags', 409, 'application/json', JSON.stringify({ id: 'x', name: 'NameExistsError', message: 'm' }))).toMatch(/status 409 is not documented/);
    expect(responseMismatch('DELETE', '/api/admin/tags/simple/ab', 200, 'application/json', '{}')).toMatch(/without a body/);
    expect(responseMismatch('GET', '/api/admin/tags', 200, 'text/html', '<p>')).toMatch(/answered text\/html/);
    expect(responseMismatch('GET', '/api/admin/tags', 400, 'application/json', JSON.stringify({ name: 'ValidationError' }))).toMatch(/required property 'id'/);
  });
});
