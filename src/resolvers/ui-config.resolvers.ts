import type { UiConfig } from '../domain/ui-config/ui-config.shapes';
import { builder } from './builder';

type VersionInfo = UiConfig['versionInfo'];

const UiVersionRef = builder.objectRef<VersionInfo['current']>('UiVersion').implement({
  description: 'Versions of the running service, by edition.',
  fields: (t) => ({
    oss: t.exposeString('oss', { description: 'The version of this service.' }),
  }),
});

const UiVersionInfoRef = builder.objectRef<VersionInfo>('UiVersionInfo').implement({
  description: 'The running version and the newest one known (no update check is made).',
  fields: (t) => ({
    current: t.field({ type: UiVersionRef, description: 'The running version.', resolve: (v) => v.current }),
    latest: t.expose('latest', { type: 'JSON', description: 'The newest version known: `{}`, as no update check is made.' }),
    isLatest: t.exposeBoolean('isLatest', { description: 'Whether the running version is the newest known: true.' }),
  }),
});

const UiConfigRef = builder.objectRef<UiConfig>('UiConfig').implement({
  description: 'What an admin UI reads first, as `GET /api/admin/ui-config` answers it (Unleash v5.8 uiConfigSchema).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'The version of this service.' }),
    versionInfo: t.field({ type: UiVersionInfoRef, description: 'The running and newest versions.', resolve: (c) => c.versionInfo }),
    authenticationType: t.exposeString('authenticationType', { description: 'How people sign in: `open-source`, the built-in username and password login (`/auth/simple/login`).' }),
    baseUriPath: t.exposeString('baseUriPath', { description: 'The path of PUBLIC_URL; empty at the root.' }),
    unleashUrl: t.exposeString('unleashUrl', { description: 'The address people reach the service at (PUBLIC_URL).' }),
    flags: t.expose('flags', { type: 'JSON', description: 'The UI\'s experimental feature flags: none (`{}`).' }),
    slogan: t.exposeString('slogan', { description: 'What the service is.' }),
    name: t.exposeString('name', { description: 'The name of the service.' }),
    environment: t.exposeString('environment', { description: 'The kind of instance: `Open Source`.' }),
    disablePasswordAuth: t.exposeBoolean('disablePasswordAuth', { description: 'Whether password sign-in is off: never.' }),
    emailEnabled: t.exposeBoolean('emailEnabled', { description: 'Whether the service sends mail: never (links are handed to the administrator).' }),
    maintenanceMode: t.exposeBoolean('maintenanceMode', { description: 'Whether changes are refused for maintenance: never.' }),
    strategySegmentsLimit: t.exposeInt('strategySegmentsLimit', { description: 'Most segments one strategy may use.' }),
  }),
});

builder.queryFields((t) => ({
  uiConfig: t.field({
    type: UiConfigRef,
    description: 'The UI configuration: the same as `GET /api/admin/ui-config`. Any caller of the admin API may read it.',
    resolve: (_root, _args, ctx) => ctx.services.uiConfig.get(),
  }),
}));
