import { MAX_STRATEGY_SEGMENTS } from '../features/feature-strategy.schemas';
import type { UiConfig } from './ui-config.shapes';

/** The service's name, version and description (its package.json, read at start-up outside the domain). */
export interface ServicePackage {
  name: string;
  version: string;
  description: string;
}

/** Until told otherwise (a service built without its package.json, as in unit tests). */
const UNNAMED: ServicePackage = { name: 'flagdeck', version: '0.0.0', description: '' };

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
