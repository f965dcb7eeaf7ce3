import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Names SDKs reported that no flag has (migration 0028), per application and environment. */
export const UnknownFlagSchema = defineEntity({
  name: 'UnknownFlag',
  tableName: 'unknown_flags',
  properties: {
    name: p.text().primary(),
    appName: p.text().primary(),
    environment: p.text().primary(),
    seenAt: p.datetime(),
  },
});
export type UnknownFlagRow = InferEntity<typeof UnknownFlagSchema>;
