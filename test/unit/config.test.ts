import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 4242, databaseUrl: undefined, dataDir: path.resolve('./data'), initAdminApiTokens: [], logLevel: 'info', dbPoolMax: 10,
      playgroundCombinationLimit: 15000, graphqlMaxCost: 100000, shutdownTimeoutMs: 10000, publicUrl: 'http://localhost:4242',
    });
  });
  it('reads every variable', () => {
    const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgresql://u@h:5432/db', DATA_DIR: '/tmp/x', INIT_ADMIN_API_TOKENS: '*:*.abcdefgh, *:*.ijklmnop', LOG_LEVEL: 'warn', DB_POOL_MAX: '4', PLAYGROUND_COMBINATION_LIMIT: '500', SHUTDOWN_TIMEOUT_MS: '2500', GRAPHQL_MAX_COST: '5000', PUBLIC_URL: 'https://flags.example.com/unleash/' });
    expect(c).toEqual({ port: 8080, databaseUrl: 'postgresql://u@h:5432/db', dataDir: '/tmp/x', initAdminApiTokens: ['*:*.abcdefgh', '*:*.ijklmnop'], logLevel: 'warn', dbPoolMax: 4, playgroundCombinationLimit: 500, graphqlMaxCost: 5000, shutdownTimeoutMs: 2500, publicUrl: 'https://flags.example.com/unleash' });
  });
  it('takes UNLEASH_URL when PUBLIC_URL is unset', () => {
    expect(loadConfig({ UNLEASH_URL: 'http://u.example:8080' }).publicUrl).toBe('http://u.example:8080');
    expect(loadConfig({ UNLEASH_URL: 'http://u.example', PUBLIC_URL: 'https://p.example' }).publicUrl).toBe('https://p.example');
  });
  it.each([
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '80a' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ INIT_ADMIN_API_TOKENS: 'default:development.abcdefgh' }, 'INIT_ADMIN_API_TOKENS'],
    [{ INIT_ADMIN_API_TOKENS: '*:*.short' }, 'INIT_ADMIN_API_TOKENS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DB_POOL_MAX: '0' }, 'DB_POOL_MAX'],
    [{ PLAYGROUND_COMBINATION_LIMIT: '0' }, 'PLAYGROUND_COMBINATION_LIMIT'],
    [{ SHUTDOWN_TIMEOUT_MS: '1s' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ GRAPHQL_MAX_COST: '0' }, 'GRAPHQL_MAX_COST'],
    [{ SHUTDOWN_TIMEOUT_MS: '600001' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ PUBLIC_URL: 'flags.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://flags.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://flags.example.com/?x=1' }, 'PUBLIC_URL'],
  ])('refuses %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
