import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/domain/access/principal';
import { tokenScope } from '../../src/domain/frontend/frontend-api.service';
import { contextFromBody, contextFromQuery, MAX_FIELDS } from '../../src/domain/frontend/frontend-context';
import { ValidationError } from '../../src/domain/errors';
import { compile, evaluateFast } from '../../src/domain/playground/engine';

/** The frontend API's context reading (src/domain/frontend/frontend-context.ts), without a database. */

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).details[0].path;
  }
  throw new Error('no error');
};

describe('contextFromQuery', () => {
  it('keeps the standard fields at the top level and moves every other key into properties, explicit ones winning', () => {
    const context = contextFromQuery({ appName: 'web', userId: '1', sessionId: 's', remoteAddress: '10.0.0.1', environment: 'staging', currentTime: '2030-01-01T00:00:00Z', region: 'eu', 'properties[tier]': 'pro', tier: 'free' });
    expect(plain(context)).toEqual({
      appName: 'web', userId: '1', sessionId: 's', remoteAddress: '10.0.0.1', environment: 'staging', currentTime: '2030-01-01T00:00:00Z',
      properties: { region: 'eu', tier: 'pro' },
    });
  });

  it('properties parsed into an object (a nesting query parser) are read the same', () => {
    expect(plain(contextFromQuery({ userId: '1', properties: { region: 'eu' } }))).toEqual({ userId: '1', properties: { region: 'eu' } });
    expect(failure(() => contextFromQuery({ properties: { region: { deeper: 'x' } } }))).toBe('properties[region]');
  });

  it('empty values are absent, as Unleash drops them', () => {
    expect(plain(contextFromQuery({ userId: '', 'properties[region]': '' }))).toEqual({ properties: {} });
  });

  it('names are only names: __proto__, constructor and toString are fields like any other', () => {
    const context = contextFromQuery({ 'properties[constructor]': 'b', toString: 'c' });
    expect(Object.getPrototypeOf(context)).toBeNull();
    expect(Object.getPrototypeOf(context.properties)).toBeNull();
    expect(Object.keys(context.properties).sort()).toEqual(['constructor', 'toString']);
    const withProto = contextFromQuery(JSON.parse('{"__proto__":"x"}'));
    expect(Object.hasOwn(withProto.properties, '__proto__')).toBe(true);
    expect(withProto.properties.__proto__).toBe('x');
    // And the engine reads them as context fields.
    const snapshot = compile([{ name: 'f', project: 'p', enabled: true, variants: [], dependencies: [], strategies: [{
      id: '1', name: 'default', disabled: false, sortOrder: 0, parameters: {}, variants: [], segments: [],
      constraints: [{ contextName: '__proto__', operator: 'IN', values: ['x'], caseInsensitive: false, inverted: false }],
    }] }], []);
    expect(evaluateFast(snapshot, withProto)[0].isEnabled).toBe(true);
    expect(evaluateFast(snapshot, contextFromQuery({}))[0].isEnabled).toBe(false);
  });

  it('refuses what cannot be a context, naming the parameter', () => {
    expect(failure(() => contextFromQuery({ userId: ['1', '2'] }))).toBe('userId');
    expect(failure(() => contextFromQuery({ properties: 'x' }))).toBe('properties');
    expect(failure(() => contextFromQuery({ 'properties[]': 'x' }))).toBe('properties[]');
    expect(failure(() => contextFromQuery({ currentTime: 'soon' }))).toBe('currentTime');
    expect(failure(() => contextFromQuery(Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, 'v']))))).toBe(`f${MAX_FIELDS}`);
  });
});

describe('contextFromBody', () => {
  it('reads `{context}`; none is an empty context; null values are absent', () => {
    expect(plain(contextFromBody({ context: { userId: '1', region: 'eu', properties: { tier: 'pro', gone: null } } }))).toEqual({ userId: '1', properties: { region: 'eu', tier: 'pro' } });
    expect(plain(contextFromBody(undefined))).toEqual({ properties: {} });
    expect(plain(contextFromBody({}))).toEqual({ properties: {} });
    expect(plain(contextFromBody({ context: null }))).toEqual({ properties: {} });
  });

  it('values are text, naming the path of one that is not', () => {
    expect(failure(() => contextFromBody({ context: { userId: 7 } }))).toBe('context/userId');
    expect(failure(() => contextFromBody({ context: { properties: { a: true } } }))).toBe('context/properties/a');
    expect(failure(() => contextFromBody({ context: { properties: [] } }))).toBe('context/properties');
    expect(failure(() => contextFromBody({ context: [] }))).toBe('context');
    expect(failure(() => contextFromBody('x'))).toBe('');
  });
});

describe('tokenScope', () => {
  const principal = (tokenEnvironment: string, tokenProjects: string[]): Principal => ({ kind: 'api-token', name: 't', userId: -1337, isAdmin: false, rootRoleId: null, tokenType: 'frontend', tokenEnvironment, tokenProjects });
  it('a frontend token: its environment and projects, whatever the context says', () => {
    expect(tokenScope(principal('production', ['a', 'b']), contextFromQuery({ environment: 'development' }))).toEqual({ environment: 'production', projects: ['a', 'b'] });
    expect(tokenScope(principal('production', ['*']), contextFromQuery({}))).toEqual({ environment: 'production', projects: '*' });
  });
  it('an admin token (`*`): the context\'s environment, else `default`', () => {
    expect(tokenScope(principal('*', ['*']), contextFromQuery({ environment: 'development' }))).toEqual({ environment: 'development', projects: '*' });
    expect(tokenScope(principal('*', ['*']), contextFromQuery({}))).toEqual({ environment: 'default', projects: '*' });
  });
});
