import { MAX_STRATEGY_SEGMENTS } from '../features/feature-strategy.schemas';

/**
 * What Unleash's admin UI and tools read from `GET /api/admin/ui-config` (Unleash v5.8's `uiConfigSchema`), as far as
 * this service has it: no field is made up to look like Unleash's.
 */
/** The service's name, version and description (its package.json, read at start-up outside the domain). */
export interface ServicePackage {
  name: string;
  version: string;
  description: string;
}

/** Until told otherwise (a service built without its package.json, as in unit tests). */
const UNNAMED: ServicePackage = { name: 'flagdeck', version: '0.0.0', description: '' };

export interface UiConfig {
  /** This service's version (package.json). */
  version: string;
  /** `current.oss` is the version; no update check is made, so `latest` is empty and `isLatest` true. */
  versionInfo: { current: { oss: string }; latest: Record<string, never>; isLatest: boolean };
  /**
   * How people sign in: `open-source` is Unleash's built-in username/password login, which is ours
   * (`POST /auth/simple/login`; the 401 body says `type: "password"`).
   */
  authenticationType: 'open-source';
  /** The path of PUBLIC_URL ('' at the root): where the service is mounted behind a proxy. */
  baseUriPath: string;
  /** PUBLIC_URL. */
  unleashUrl: string;
  /** The UI's experimental feature flags: none. */
  flags: Record<string, boolean>;
  slogan: string;
  name: string;
  environment: string;
  /** Password sign-in is always available. */
  disablePasswordAuth: boolean;
  /** No mail is sent (password reset and invite links are handed to the administrator instead). */
  emailEnabled: boolean;
  /** There is no maintenance mode. */
  maintenanceMode: boolean;
  /** Most segments one strategy may use. */
  strategySegmentsLimit: number;
}

/** The UI configuration: the same answer for REST and GraphQL, for any authenticated admin-API caller (Unleash: no permission). */
export class UiConfigService {
  constructor(private readonly publicUrl: string, private readonly servicePackage: ServicePackage = UNNAMED) {}

  get(): UiConfig {
    const { version, description, name } = this.servicePackage;
    return {
      version,
      versionInfo: { current: { oss: version }, latest: {}, isLatest: true },
      authenticationType: 'open-source',
      baseUriPath: new URL(this.publicUrl).pathname.replace(/\/+$/, ''),
      unleashUrl: this.publicUrl,
      flags: {},
      slogan: description,
      name,
      environment: 'Open Source',
      disablePasswordAuth: false,
      emailEnabled: false,
      maintenanceMode: false,
      strategySegmentsLimit: MAX_STRATEGY_SEGMENTS,
    };
  }
}
