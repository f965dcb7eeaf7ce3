import type { EntityManager } from '@mikro-orm/postgresql';
import { SAML_SETTING, toSamlSettings, type StoredSamlSettings } from './saml-settings.read-model';
import type { SigningKeyPair } from './self-signed';

/**
 * The SQL of the SAML settings and the service provider's key pair: two rows of the generic `settings` table, `saml`
 * and `saml-sp-key` (saml-settings.service.ts says what each is for).
 */

const SP_KEY_SETTING = 'saml-sp-key';

/** The stored settings, or the defaults before any were saved, with the row locked `for update`. */
export async function lockSamlSettings(tx: EntityManager): Promise<{ settings: StoredSamlSettings; saved: boolean }> {
  const [row]: Array<{ content: StoredSamlSettings | null }> = await tx.execute(`select content from settings where name = ? for update`, [SAML_SETTING]);
  return toSamlSettings(row?.content);
}

/** Makes the settings row (content null) unless it exists. */
export async function ensureSamlSettingsRow(tx: EntityManager): Promise<void> {
  await tx.execute(`insert into settings (name, content) values (?, 'null'::jsonb) on conflict (name) do nothing`, [SAML_SETTING]);
}

export async function writeSamlSettings(tx: EntityManager, settings: StoredSamlSettings): Promise<void> {
  await tx.execute(`update settings set content = ?::jsonb where name = ?`, [JSON.stringify(settings), SAML_SETTING]);
}

/** The stored key pair, if one was made. */
export async function readSpKey(em: EntityManager): Promise<SigningKeyPair | undefined> {
  return ((await em.execute(`select content from settings where name = ?`, [SP_KEY_SETTING])) as Array<{ content: SigningKeyPair }>)[0]?.content;
}

/** Stores the key pair unless one is stored already. */
export async function insertSpKey(em: EntityManager, pair: SigningKeyPair): Promise<void> {
  await em.execute(`insert into settings (name, content) values (?, ?::jsonb) on conflict (name) do nothing`, [SP_KEY_SETTING, JSON.stringify(pair)]);
}

/** Replaces the stored key pair by `next`, only if it is still `found`. */
export async function replaceSpKey(em: EntityManager, found: SigningKeyPair, next: SigningKeyPair): Promise<void> {
  await em.execute(`update settings set content = ?::jsonb where name = ? and content = ?::jsonb`, [JSON.stringify(next), SP_KEY_SETTING, JSON.stringify(found)]);
}
