import { Migration } from '@mikro-orm/migrations';

/**
 * What the SDKs report (issue 14): their registrations and their hourly usage counts.
 * - `client_applications`: one row per application name, created by its first registration or metrics report (or an
 *   admin), with what Unleash keeps of it: the strategies the SDK implements, and a description, url, color and icon
 *   an admin may set. `seen_at` is the last report of any of its instances.
 * - `client_instances`: one row per running SDK (application, environment, instance id), with what its registration
 *   says (SDK version, start time, metrics interval), the address it reports from and the projects of its token.
 * - `client_metrics_hourly`: yes/no counts per feature, application, environment and hour, added to by every flush of
 *   every instance (`insert … on conflict do update set yes = yes + excluded.yes`); the variant counts of those hours
 *   in `client_metrics_hourly_variants`. Counts of a deleted feature go with it. The `hour` index serves pruning and
 *   the "last N hours" reads; `(app_name, hour)` the toggles an application was seen using.
 *
 * The model-version triggers of `features` and `feature_environments` (0004) are narrowed to the columns SDKs and the
 * playground see, leaving out `last_seen_at` (and who created a feature): recording that an SDK used a flag changes
 * nothing an evaluation depends on, so it must not invalidate the compiled snapshots and the client API's ETag every
 * few seconds. The client API's migration (0017) narrows them the same way; a column added to either table later must
 * be added to these lists (test/e2e/rest/client-metrics.test.ts checks that every other column is).
 */
export class Migration0016ClientMetrics extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table client_applications (
  app_name text primary key,
  description text,
  url text,
  color text,
  icon text,
  strategies jsonb not null default '[]',
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  seen_at timestamptz
)`);
    this.addSql(`create table client_instances (
  app_name text not null references client_applications (app_name) on delete cascade on update cascade,
  environment text not null,
  instance_id text not null,
  sdk_version text,
  client_ip text,
  started_at timestamptz,
  interval_ms bigint,
  projects jsonb not null default '["*"]',
  created_at timestamptz not null default now(),
  seen_at timestamptz not null default now(),
  primary key (app_name, environment, instance_id)
)`);
    this.addSql(`create index client_instances_seen_idx on client_instances (seen_at)`);
    this.addSql(`create table client_metrics_hourly (
  feature_name text not null references features (name) on delete cascade on update cascade,
  app_name text not null,
  environment text not null,
  hour timestamptz not null,
  yes bigint not null default 0,
  no bigint not null default 0,
  primary key (feature_name, app_name, environment, hour)
)`);
    this.addSql(`create index client_metrics_hourly_hour_idx on client_metrics_hourly (hour)`);
    this.addSql(`create index client_metrics_hourly_app_idx on client_metrics_hourly (app_name, hour)`);
    this.addSql(`create table client_metrics_hourly_variants (
  feature_name text not null,
  app_name text not null,
  environment text not null,
  hour timestamptz not null,
  variant text not null,
  count bigint not null default 0,
  primary key (feature_name, app_name, environment, hour, variant),
  foreign key (feature_name, app_name, environment, hour) references client_metrics_hourly (feature_name, app_name, environment, hour)
    on delete cascade on update cascade
)`);
    this.addSql(`drop trigger features_model_version on features`);
    this.addSql(`create trigger features_model_version
  after insert or delete or update of name, project, type, description, stale, impression_data, created_at, archived_at
  on features for each statement execute function model_version_bump()`);
    this.addSql(`drop trigger feature_environments_model_version on feature_environments`);
    this.addSql(`create trigger feature_environments_model_version
  after insert or delete or update of feature_name, environment, enabled, variants
  on feature_environments for each statement execute function model_version_bump()`);
  }
}
