import type { EntityManager } from '@mikro-orm/postgresql';
import { lockedFindOne } from '../change';
import { SAML_SETTING, toSamlSettings, type StoredSamlSettings } from './saml-settings.read-model';
import type { SigningKeyPair } from './self-signed';
import { SettingSchema } from './setting.entity';

/**
 * The SQL of the SAML settings and the service provider's key pair: two rows of the generic `settings` table, `saml`
 * and `saml-sp-key` (saml-settings.service.ts says what each is for). The reads and the lock go through the ORM; the
 * writes stay SQL: inserts that leave a row there alone (`on conflict do nothing`, one of them writing JSON `null`,
 * which the ORM writes as SQL null), an update conditional on the stored JSON (`content = ?::jsonb`), and the
 * settings' update (see there).
 */

const SP_KEY_SETTING = 'saml-sp-key';

/** The stored settings, or the defaults before any were saved, with the row locked `for update`. */
export async function lockSamlSettings(tx: EntityManager): Promise<{ settings: StoredSamlSettings; saved: boolean }> {
  const row = await lockedFindOne(tx, SettingSchema, { name: SAML_SETTING });
  return toSamlSettings(row?.content as StoredSamlSettings | null | undefined);
}

/** Makes the settings row (content null) unless it exists. */
export async function ensureSamlSettingsRow(tx: EntityManager): Promise<void> {
  await tx.execute(`insert into settings (name, content) values (?, 'null'::jsonb) on conflict (name) do nothing`, [SAML_SETTING]);
}

export async function writeSamlSettings(tx: EntityManager, settings: StoredSamlSettings): Promise<void> {
  // SQL: the ORM would store a property set to undefined as null; JSON.stringify leaves it out, as the answer does.
  await tx.execute(`update settings set content = ?::jsonb where name = ?`, [JSON.stringify(settings), SAML_SETTING]);
}

/** The stored key pair, if one was made. */
export async function readSpKey(em: EntityManager): Promise<SigningKeyPair | undefined> {
  const row = await em.findOne(SettingSchema, { name: SP_KEY_SETTING }, { disableIdentityMap: true });
  return row?.content as SigningKeyPair | undefined;
}

/** Stores the key pair unless one is stored already. */
export async function insertSpKey(em: EntityManager, pair: SigningKeyPair): Promise<void> {
  await em.execute(`insert into settings (name, content) values (?, ?::jsonb) on conflict (name) do nothing`, [SP_KEY_SETTING, JSON.stringify(pair)]);
}

/** Replaces the stored key pair by `next`, only if it is still `found`. */
export async function replaceSpKey(em: EntityManager, found: SigningKeyPair, next: SigningKeyPair): Promise<void> {
  await em.execute(`update settings set content = ?::jsonb where name = ? and content = ?::jsonb`, [JSON.stringify(next), SP_KEY_SETTING, JSON.stringify(found)]);
}
