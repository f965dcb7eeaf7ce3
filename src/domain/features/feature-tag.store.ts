import type { EntityManager } from '@mikro-orm/postgresql';

/** The SQL of tagging features (feature-tag.service.ts says what each rule is for). */

/** Whether the tag type exists, read `for key share`: it stays until the tag is on. */
export async function lockTagType(tx: EntityManager, type: string): Promise<boolean> {
  const rows = await tx.execute(`select 1 from tag_types where name = ? for key share`, [type]);
  return rows.length > 0;
}

/** Creates the tag unless it exists; whether it was created. */
export async function insertTag(tx: EntityManager, type: string, value: string): Promise<boolean> {
  const rows = await tx.execute(`insert into tags (type, value) values (?, ?) on conflict do nothing returning type`, [type, value]);
  return rows.length > 0;
}

/** Puts the tag on the feature unless it is there; whether it was put on. */
export async function linkFeatureTag(tx: EntityManager, feature: string, type: string, value: string, userId: number | null): Promise<boolean> {
  const rows = await tx.execute(
    `insert into feature_tags (feature_name, tag_type, tag_value, created_by_user_id) values (?, ?, ?, ?) on conflict do nothing returning feature_name`,
    [feature, type, value, userId]);
  return rows.length > 0;
}

/** Takes the tag off the feature; whether it was on. */
export async function unlinkFeatureTag(tx: EntityManager, feature: string, type: string, value: string): Promise<boolean> {
  const rows = await tx.execute(`delete from feature_tags where feature_name = ? and tag_type = ? and tag_value = ? returning feature_name`, [feature, type, value]);
  return rows.length > 0;
}
