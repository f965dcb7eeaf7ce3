import type { EntityManager } from '@mikro-orm/postgresql';
import type { SamlSettings } from './saml-settings.shapes';
import { SettingSchema } from './setting.entity';

/** What is stored under `saml`: the settings but the service's own certificate. */
export type StoredSamlSettings = Omit<SamlSettings, 'spCertificate'>;

/** The `settings` row of the SAML settings. */
export const SAML_SETTING = 'saml';

const DEFAULTS: StoredSamlSettings = { enabled: false, autoCreate: false, defaultRootRole: 'Viewer' };

/** The stored settings (the row's content, null before any were saved) over the defaults. */
export function toSamlSettings(content: StoredSamlSettings | null | undefined): { settings: StoredSamlSettings; saved: boolean } {
  return content ? { settings: { ...DEFAULTS, ...content }, saved: true } : { settings: { ...DEFAULTS }, saved: false };
}

/** The stored settings, or the defaults before any were saved. */
export async function readSamlSettings(em: EntityManager): Promise<{ settings: StoredSamlSettings; saved: boolean }> {
  const row = await em.findOne(SettingSchema, { name: SAML_SETTING }, { disableIdentityMap: true });
  return toSamlSettings(row?.content as StoredSamlSettings | null | undefined);
}
