import { Migration } from '@mikro-orm/migrations';

/**
 * A counter that moves whenever anything evaluation depends on changes (features, their environments, strategies,
 * segments and dependencies), bumped by statement-level triggers so every write path counts: services, cascades,
 * bulk SQL, truncation. Readers that cache derived data (the playground's compiled snapshots) compare it to decide
 * whether their copy is still current. The single row is updated inside the writing transaction, so the value a
 * reader sees always belongs to committed data.
 */
export class Migration0004ModelVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table model_version (id integer primary key check (id = 1), version bigint not null)`);
    this.addSql(`insert into model_version (id, version) values (1, 1)`);
    this.addSql(`create function model_version_bump() returns trigger language plpgsql as $$
begin
  insert into model_version (id, version) values (1, 1)
  on conflict (id) do update set version = model_version.version + 1;
  return null;
end $$`);
    for (const table of ['features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'segments', 'feature_dependencies']) {
      this.addSql(`create trigger ${table}_model_version after insert or update or delete on ${table} for each statement execute function model_version_bump()`);
      this.addSql(`create trigger ${table}_model_version_truncate after truncate on ${table} for each statement execute function model_version_bump()`);
    }
  }
}
