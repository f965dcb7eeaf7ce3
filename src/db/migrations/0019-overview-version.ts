import { Migration } from '@mikro-orm/migrations';

/**
 * What a project's feature overview shows (the project feature list and the health report, src/domain/projects/
 * feature-overview.ts) is cached per project while two counters stand still:
 * - `model_version` (migration 0004), which now also moves when environments (name, type, sort order, switched on),
 *   their links to projects, or feature types (the lifetime behind "potentially stale") change;
 * - `last_seen_version`, new here, which moves when SDK metrics record `last_seen_at` on features or feature
 *   environments. It is a counter of its own so that metrics, which arrive all the time, do not invalidate the client
 *   API's and the playground's caches, which do not show when a feature was last seen.
 * The health report's average time to production reads the first `feature-environment-enabled` event of each release
 * feature: such events move `model_version` too (the enable itself already does; this covers events written alone).
 * Statement-level triggers count every write path (services, cascades, bulk SQL, truncation), inside the writing
 * transaction, so a reader never sees a counter that belongs to uncommitted data.
 */
export class Migration0019OverviewVersion extends Migration {
  override async up(): Promise<void> {
    for (const table of ['environments', 'project_environments', 'feature_types']) {
      this.addSql(`create trigger ${table}_model_version after insert or update or delete on ${table} for each statement execute function model_version_bump()`);
      this.addSql(`create trigger ${table}_model_version_truncate after truncate on ${table} for each statement execute function model_version_bump()`);
    }
    this.addSql(`create function model_version_bump_on_enabled_events() returns trigger language plpgsql as $$
begin
  if exists (select 1 from changed_events where type = 'feature-environment-enabled') then
    insert into model_version (id, version) values (1, 1)
    on conflict (id) do update set version = model_version.version + 1;
    perform pg_notify('flagdeck_model_version', '');
  end if;
  return null;
end $$`);
    this.addSql(`create trigger events_model_version_insert after insert on events referencing new table as changed_events
  for each statement execute function model_version_bump_on_enabled_events()`);
    this.addSql(`create trigger events_model_version_update_new after update on events referencing new table as changed_events
  for each statement execute function model_version_bump_on_enabled_events()`);
    this.addSql(`create trigger events_model_version_update_old after update on events referencing old table as changed_events
  for each statement execute function model_version_bump_on_enabled_events()`);
    this.addSql(`create trigger events_model_version_delete after delete on events referencing old table as changed_events
  for each statement execute function model_version_bump_on_enabled_events()`);
    this.addSql(`create trigger events_model_version_truncate after truncate on events for each statement execute function model_version_bump()`);
    this.addSql(`create table last_seen_version (id integer primary key check (id = 1), version bigint not null)`);
    this.addSql(`insert into last_seen_version (id, version) values (1, 1)`);
    this.addSql(`create function last_seen_version_bump() returns trigger language plpgsql as $$
begin
  insert into last_seen_version (id, version) values (1, 1)
  on conflict (id) do update set version = last_seen_version.version + 1;
  return null;
end $$`);
    for (const table of ['features', 'feature_environments']) {
      this.addSql(`create trigger ${table}_last_seen_version after update of last_seen_at on ${table} for each statement execute function last_seen_version_bump()`);
    }
  }
}
