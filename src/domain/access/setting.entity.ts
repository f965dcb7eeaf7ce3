import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Settings (migration 0009): one JSON document per name (`saml`, `saml-sp-key`, the generated credentials' records).
 * Nothing in it is ever returned whole: the services pick what they show.
 */
export const SettingSchema = defineEntity({
  name: 'Setting',
  tableName: 'settings',
  properties: {
    name: p.text().primary(),
    content: p.json<unknown>(),
  },
});
export type SettingRow = InferEntity<typeof SettingSchema>;
