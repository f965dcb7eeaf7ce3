import { Migration } from '@mikro-orm/migrations';

/**
 * Feature tags move `model_version` (migration 0004) too. The client API's cache (src/rest/sdk/client-features.routes.ts)
 * keeps each answer while the counter stands still, and `GET /api/client/features?tag=type:value` shows the features
 * carrying a tag: tagging or untagging (and a tag or tag type deleted or renamed, which cascades to `feature_tags`)
 * changes that answer. (Migration 0016 already narrowed the triggers of `features` and `feature_environments` so that
 * recording `last_seen_at` does not move the counter.)
 */
export class Migration0017ClientFeaturesVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create trigger feature_tags_model_version after insert or update or delete on feature_tags for each statement execute function model_version_bump()`);
    this.addSql(`create trigger feature_tags_model_version_truncate after truncate on feature_tags for each statement execute function model_version_bump()`);
  }
}
