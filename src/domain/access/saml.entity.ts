import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Ids of SAML messages (migration 0009), shared by every instance: `request` rows are the requests the service issued,
 * `assertion` rows the assertions already accepted.
 */
export const SamlMessageIdSchema = defineEntity({
  name: 'SamlMessageId',
  tableName: 'saml_message_ids',
  properties: {
    kind: p.enum(['request', 'assertion']).primary(),
    id: p.text().primary(),
    value: p.text().default(''),
    expiresAt: p.datetime(),
  },
});
export type SamlMessageIdRow = InferEntity<typeof SamlMessageIdSchema>;

/** For a session opened by SAML, the NameID and SessionIndex the IdP gave (migration 0009). */
export const SamlSessionSchema = defineEntity({
  name: 'SamlSession',
  tableName: 'saml_sessions',
  properties: {
    sidHash: p.text().primary(),
    nameId: p.text(),
    nameIdFormat: p.text().nullable(),
    sessionIndex: p.text().nullable(),
  },
});
export type SamlSessionRow = InferEntity<typeof SamlSessionSchema>;
