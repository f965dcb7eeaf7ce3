import { Migration } from '@mikro-orm/migrations';

/** The tables whose changes move `model_version`, and the columns of an update that do (all when absent). */
const MOVERS: Array<[table: string, updateOf?: string]> = [
  ['features', 'name, project, type, description, stale, impression_data, created_at, archived_at'],
  ['feature_environments', 'feature_name, environment, enabled, variants'],
  ['feature_strategies'], ['feature_strategy_segments'], ['segments'], ['feature_dependencies'], ['feature_tags'],
  ['environments'], ['project_environments'], ['feature_types'],
];
const ENABLED = `'feature-environment-enabled'`;

/**
 * `model_version` (migrations 0004, 0016–0019) moves once per transaction, at its commit. The statement-level triggers
 * bumped the single counter row at the first write, so every change held that row's lock until it committed and
 * concurrent changes of unrelated features ran one at a time; a create bumped it twice.
 *
 * Now each change of those tables queues a deferred row-level constraint trigger only for the first changed row of the
 * transaction (`model_version_first_move()`, a transaction-local setting, reverted with a rolled-back savepoint together
 * with what it queued); it runs `model_version_bump()` at commit, so the lock is held only while committing. Readers
 * still see the counter move in the same commit as the data. A statement that changes no row no longer moves it.
 * Truncation keeps its statement-level triggers (constraint triggers cannot fire on truncate).
 */
export class Migration0021ModelVersionAtCommit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function model_version_first_move() returns boolean language plpgsql as $$
begin
  if current_setting('flagdeck.model_version_moving', true) = 'y' then return false; end if;
  perform set_config('flagdeck.model_version_moving', 'y', true);
  return true;
end $$`);
    for (const [table, updateOf] of MOVERS) {
      this.addSql(`drop trigger ${table}_model_version on ${table}`);
      this.addSql(`create constraint trigger ${table}_model_version
  after insert or delete or update${updateOf ? ` of ${updateOf}` : ''} on ${table} deferrable initially deferred
  for each row when (model_version_first_move()) execute function model_version_bump()`);
    }
    // The first `feature-environment-enabled` event of a feature feeds the health report (0019). CASE, not AND: the
    // type must be checked before the first-move marker is taken.
    for (const trigger of ['events_model_version_insert', 'events_model_version_update_new', 'events_model_version_update_old', 'events_model_version_delete']) {
      this.addSql(`drop trigger ${trigger} on events`);
    }
    this.addSql(`drop function model_version_bump_on_enabled_events()`);
    const onEnabled = (row: string) => `when (case when ${row} then model_version_first_move() else false end) execute function model_version_bump()`;
    this.addSql(`create constraint trigger events_model_version_insert after insert on events deferrable initially deferred
  for each row ${onEnabled(`new.type = ${ENABLED}`)}`);
    this.addSql(`create constraint trigger events_model_version_update after update on events deferrable initially deferred
  for each row ${onEnabled(`old.type = ${ENABLED} or new.type = ${ENABLED}`)}`);
    this.addSql(`create constraint trigger events_model_version_delete after delete on events deferrable initially deferred
  for each row ${onEnabled(`old.type = ${ENABLED}`)}`);
  }
}
