import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for reads over the feature model.
 * - events_enabled_feature_idx: the health report's time to production looks up, per release feature, its
 *   feature-environment-enabled events after its creation; the partial index holds only those events, so the
 *   lookup costs the same however large the audit log grows (a sequential scan of events otherwise).
 */
export class Migration0002FeatureModelIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index events_enabled_feature_idx on events (feature_name, created_at) where type = 'feature-environment-enabled'`);
  }
}
