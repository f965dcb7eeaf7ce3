import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 4242, databaseUrl: undefined, dataDir: path.resolve('./data'), initAdminApiTokens: [], logLevel: 'info', logFormat: 'json', dbPoolMax: 10,
      playgroundCombinationLimit: 15000, graphqlMaxCost: 100000, shutdownTimeoutMs: 10000, publicUrl: 'http://localhost:4242',
      addonDelivery: { allowPrivateUrls: false, timeoutMs: 10000, maxAttempts: 5, retryBaseMs: 5000, pollMs: 1000, leaseMs: 30000, concurrency: 8 },
      changeRequestPollMs: 1000, importBodyLimit: '500kb', corsOrigins: [], metricsFlushMs: 5000, metricsRetentionHours: 720, memorySoftLimitMb: 400,
      trustProxy: false, sdkStaleAfterMs: 1000, sdkTokenGraceSeconds: 3600, databaseStallTimeoutMs: 5000, historyRetentionDays: 90,
    });
  });
  it('reads every variable', () => {
    const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgresql://u@h:5432/db', DATA_DIR: '/tmp/x', INIT_ADMIN_API_TOKENS: '*:*.abcdefgh, *:*.ijklmnop', LOG_LEVEL: 'warn', LOG_FORMAT: 'pretty', DB_POOL_MAX: '4', PLAYGROUND_COMBINATION_LIMIT: '500', SHUTDOWN_TIMEOUT_MS: '2500', GRAPHQL_MAX_COST: '5000', PUBLIC_URL: 'https://flags.example.com/unleash/', CHANGE_REQUEST_POLL_MS: '250', IMPORT_BODY_LIMIT: '2MB', CORS_ORIGINS: 'https://app.example.com, http://localhost:3000/', CLIENT_METRICS_FLUSH_MS: '1000', CLIENT_METRICS_RETENTION_HOURS: '72', MEMORY_SOFT_LIMIT_MB: '0', TRUST_PROXY: 'loopback', SDK_STALE_AFTER_MS: '250', SDK_TOKEN_GRACE_SECONDS: '0', DATABASE_STALL_TIMEOUT_MS: '2000', HISTORY_RETENTION_DAYS: '0' });
    expect(c).toEqual({ port: 8080, databaseUrl: 'postgresql://u@h:5432/db', dataDir: '/tmp/x', initAdminApiTokens: ['*:*.abcdefgh', '*:*.ijklmnop'], logLevel: 'warn', logFormat: 'pretty', dbPoolMax: 4, playgroundCombinationLimit: 500, graphqlMaxCost: 5000, shutdownTimeoutMs: 2500, publicUrl: 'https://flags.example.com/unleash', addonDelivery: expect.any(Object), changeRequestPollMs: 250, importBodyLimit: '2mb', corsOrigins: ['https://app.example.com', 'http://localhost:3000'], metricsFlushMs: 1000, metricsRetentionHours: 72, memorySoftLimitMb: 0, trustProxy: ['loopback'], sdkStaleAfterMs: 250, sdkTokenGraceSeconds: 0, databaseStallTimeoutMs: 2000, historyRetentionDays: 0 });
  });
  it('reads the ADDON_* variables (the lease defaults to the timeout plus 20 s)', () => {
    expect(loadConfig({ ADDON_ALLOW_PRIVATE_URLS: 'true', ADDON_TIMEOUT_MS: '2000', ADDON_MAX_ATTEMPTS: '7', ADDON_RETRY_BASE_MS: '100', ADDON_POLL_MS: '250', ADDON_CONCURRENCY: '3' }).addonDelivery)
      .toEqual({ allowPrivateUrls: true, timeoutMs: 2000, maxAttempts: 7, retryBaseMs: 100, pollMs: 250, leaseMs: 22000, concurrency: 3 });
    expect(loadConfig({ ADDON_ALLOW_PRIVATE_URLS: '0', ADDON_LEASE_MS: '15000' }).addonDelivery).toMatchObject({ allowPrivateUrls: false, leaseMs: 15000 });
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
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ LOG_FORMAT: 'json,pretty' }, 'LOG_FORMAT'],
    [{ DB_POOL_MAX: '0' }, 'DB_POOL_MAX'],
    [{ SDK_STALE_AFTER_MS: '0' }, 'SDK_STALE_AFTER_MS'],
    [{ SDK_TOKEN_GRACE_SECONDS: '-1' }, 'SDK_TOKEN_GRACE_SECONDS'],
    [{ DATABASE_STALL_TIMEOUT_MS: '10' }, 'DATABASE_STALL_TIMEOUT_MS'],
    [{ PLAYGROUND_COMBINATION_LIMIT: '0' }, 'PLAYGROUND_COMBINATION_LIMIT'],
    [{ SHUTDOWN_TIMEOUT_MS: '1s' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ GRAPHQL_MAX_COST: '0' }, 'GRAPHQL_MAX_COST'],
    [{ IMPORT_BODY_LIMIT: '500 gb' }, 'IMPORT_BODY_LIMIT'],
    [{ CORS_ORIGINS: 'app.example.com' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: '*, https://a.example' }, 'CORS_ORIGINS'],
    [{ CLIENT_METRICS_FLUSH_MS: '0' }, 'CLIENT_METRICS_FLUSH_MS'],
    [{ CLIENT_METRICS_RETENTION_HOURS: '0' }, 'CLIENT_METRICS_RETENTION_HOURS'],
    [{ MEMORY_SOFT_LIMIT_MB: '-1' }, 'MEMORY_SOFT_LIMIT_MB'],
    [{ MEMORY_SOFT_LIMIT_MB: '512mb' }, 'MEMORY_SOFT_LIMIT_MB'],
    [{ IMPORT_BODY_LIMIT: '10b' }, 'IMPORT_BODY_LIMIT'],
    [{ IMPORT_BODY_LIMIT: '101mb' }, 'IMPORT_BODY_LIMIT'],
    [{ SHUTDOWN_TIMEOUT_MS: '600001' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ PUBLIC_URL: 'flags.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://flags.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://flags.example.com/?x=1' }, 'PUBLIC_URL'],
    [{ ADDON_ALLOW_PRIVATE_URLS: 'yes' }, 'ADDON_ALLOW_PRIVATE_URLS'],
    [{ ADDON_TIMEOUT_MS: '10s' }, 'ADDON_TIMEOUT_MS'],
    [{ ADDON_MAX_ATTEMPTS: '0' }, 'ADDON_MAX_ATTEMPTS'],
    [{ ADDON_TIMEOUT_MS: '5000', ADDON_LEASE_MS: '5000' }, 'ADDON_LEASE_MS'],
    [{ ADDON_CONCURRENCY: '101' }, 'ADDON_CONCURRENCY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
  ])('refuses %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false], ['', false], ['false', false], ['FALSE', false], ['0', false],
    ['true', true], [' True ', true],
    ['1', 1], ['2', 2], ['100', 100],
    ['loopback', ['loopback']],
    ['Loopback, 10.0.0.0/8, 192.168.1.1', ['loopback', '10.0.0.0/8', '192.168.1.1']],
    ['::1, fc00::/7, uniquelocal, linklocal', ['::1', 'fc00::/7', 'uniquelocal', 'linklocal']],
    ['127.0.0.1/255.0.0.0', ['127.0.0.1/255.0.0.0']],
  ])('reads %j as Express\'s trust proxy %j', (raw, value) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(value);
  });

  it.each([
    ['yes', 'invalid IP address: yes'],
    ['proxy.internal', 'invalid IP address: proxy.internal'],
    ['10.0.0.0/33', 'invalid range on address: 10.0.0.0/33'],
    ['1.2.3', 'invalid IP address: 1.2.3'],
    ['-1', 'invalid IP address: -1'],
    ['101', 'got "101"'],
    ['loopback,,10.0.0.1', 'has an empty entry'],
    ['loopback,', 'has an empty entry'],
  ])('refuses %j with a message that names the forms it takes', (raw, detail) => {
    let message = '';
    try {
      loadConfig({ TRUST_PROXY: raw });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('TRUST_PROXY');
    expect(message).toContain('false, true, a number of proxy hops (1-100), or proxy addresses and subnets separated by commas');
    expect(message).toContain(detail);
  });
});
