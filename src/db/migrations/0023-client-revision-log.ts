import { Migration } from '@mikro-orm/migrations';

/** How many revisions the log keeps: a client further behind is sent the whole state again. */
export const CLIENT_REVISIONS_KEPT = 10_000;

/**
 * The tables of what `GET /api/client/features` shows, how a changed row names its feature, and the columns of an
 * update that count (the same as move `model_version`, migration 0021: a key recorded without a revision would be lost).
 */
const FEATURE_TABLES: Array<{ table: string; name: string; environment: string | null; updateOf?: string }> = [
  { table: 'feature_environments', name: 'feature_name', environment: 'environment', updateOf: 'feature_name, environment, enabled, variants' },
  { table: 'feature_strategies', name: 'feature_name', environment: 'environment' },
  { table: 'feature_dependencies', name: 'child', environment: null },
  { table: 'feature_tags', name: 'feature_name', environment: null },
];

/**
 * A log of client-visible changes (issue 32), so SDKs can be sent what changed instead of the whole answer.
 *
 * Each row written to the tables above records, in the same statement, the feature or segment it changes (with its
 * environment when the row is per environment, and its project, so a reader can tell a removal a token could see).
 * Rows are keyed by the writing transaction; at commit, `model_version_bump()` (which moves the counter once per
 * transaction, 0021) also records which transaction that revision is. A reader that saw revision V thus sees every
 * change up to V, and `(r, V]` is what a client at revision r lacks. Revisions are the counter's values, shared by every
 * instance. The log keeps the last CLIENT_REVISIONS_KEPT revisions; `client_revision_horizon` is the oldest revision a
 * change set can start from, and truncating a client table moves it to now (nothing before can be described).
 */
export class Migration0023ClientRevisionLog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table client_revisions (revision bigint primary key, txid xid8 not null)`);
    this.addSql(`create table client_changes (
  txid xid8 not null default pg_current_xact_id(),
  kind char(1) not null check (kind in ('f', 's')),
  key text not null,
  environment text,
  project text)`);
    this.addSql(`create index client_changes_txid on client_changes (txid)`);
    this.addSql(`create table client_revision_horizon (id integer primary key check (id = 1), revision bigint not null)`);
    this.addSql(`insert into client_revision_horizon (id, revision) values (1, coalesce((select version from model_version where id = 1), 0))`);

    // A feature row: its old project and, when it moved, its new one (a reader of either project must hear of it).
    this.addSql(`create function client_change_feature() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    insert into client_changes (kind, key, project) values ('f', old.name, old.project);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and (new.project is distinct from old.project or new.name is distinct from old.name)) then
    insert into client_changes (kind, key, project) values ('f', new.name, new.project);
  end if;
  return null;
end $$`);
    this.addSql(`create trigger features_client_change after insert or delete or update of
  name, project, type, description, stale, impression_data, created_at, archived_at on features
  for each row execute function client_change_feature()`);

    // A row of a feature's: the feature (its project as it is now; gone when the feature itself was deleted, which its
    // own row records) and the environment when the row is per environment.
    for (const { table, name, environment, updateOf } of FEATURE_TABLES) {
      const record = (row: 'old' | 'new') => `insert into client_changes (kind, key, environment, project)
    values ('f', ${row}.${name}, ${environment ? `${row}.${environment}` : 'null'}, (select f.project from features f where f.name = ${row}.${name}));`;
      const moved = `new.${name} is distinct from old.${name}${environment ? ` or new.${environment} is distinct from old.${environment}` : ''}`;
      this.addSql(`create function ${table}_client_change() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    ${record('old')}
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and (${moved})) then
    ${record('new')}
  end if;
  return null;
end $$`);
      this.addSql(`create trigger ${table}_client_change after insert or delete or update${updateOf ? ` of ${updateOf}` : ''} on ${table}
  for each row execute function ${table}_client_change()`);
    }
    // A strategy's segments: its feature and environment, through the strategy (gone when the strategy was deleted,
    // which its own row records), and the segment, which a client may now need or no longer need.
    this.addSql(`create function client_change_strategy_segment() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then insert into client_changes (kind, key) values ('s', old.segment_id::text); end if;
  if tg_op <> 'DELETE' then insert into client_changes (kind, key) values ('s', new.segment_id::text); end if;
  insert into client_changes (kind, key, environment, project)
  select 'f', fs.feature_name, fs.environment, f.project
    from feature_strategies fs join features f on f.name = fs.feature_name
   where fs.id in (case when tg_op <> 'INSERT' then old.feature_strategy_id end, case when tg_op <> 'DELETE' then new.feature_strategy_id end);
  return null;
end $$`);
    this.addSql(`create trigger feature_strategy_segments_client_change after insert or delete or update on feature_strategy_segments
  for each row execute function client_change_strategy_segment()`);
    this.addSql(`create function client_change_segment() returns trigger language plpgsql as $$
begin
  insert into client_changes (kind, key) values ('s', (case when tg_op = 'DELETE' then old.id else new.id end)::text);
  if tg_op = 'UPDATE' and new.id <> old.id then insert into client_changes (kind, key) values ('s', old.id::text); end if;
  return null;
end $$`);
    this.addSql(`create trigger segments_client_change after insert or delete or update on segments
  for each row execute function client_change_segment()`);

    // The counter's move also names the transaction of that revision, and every so often drops what is past keeping.
    this.addSql(`create function client_revisions_prune(v bigint) returns void language plpgsql as $$
declare
  oldest bigint := v - ${CLIENT_REVISIONS_KEPT};
begin
  delete from client_changes c using client_revisions r where r.txid = c.txid and r.revision <= oldest;
  delete from client_revisions where revision <= oldest;
  update client_revision_horizon set revision = greatest(revision, oldest) where id = 1;
end $$`);
    this.addSql(`create function model_version_advance() returns bigint language plpgsql as $$
declare
  v bigint;
begin
  insert into model_version (id, version) values (1, 1)
  on conflict (id) do update set version = model_version.version + 1
  returning version into v;
  insert into client_revisions (revision, txid) values (v, pg_current_xact_id()) on conflict (revision) do nothing;
  if v % 256 = 0 then perform client_revisions_prune(v); end if;
  perform pg_notify('flagdeck_model_version', '');
  return v;
end $$`);
    this.addSql(`create or replace function model_version_bump() returns trigger language plpgsql as $$
begin
  perform model_version_advance();
  return null;
end $$`);
    this.addSql(`create function model_version_bump_truncated() returns trigger language plpgsql as $$
declare
  v bigint := model_version_advance();
begin
  insert into client_revision_horizon (id, revision) values (1, v)
  on conflict (id) do update set revision = excluded.revision;
  return null;
end $$`);
    for (const table of ['features', 'feature_environments', 'feature_strategies', 'feature_strategy_segments', 'segments', 'feature_dependencies', 'feature_tags']) {
      this.addSql(`drop trigger ${table}_model_version_truncate on ${table}`);
      this.addSql(`create trigger ${table}_model_version_truncate after truncate on ${table} for each statement execute function model_version_bump_truncated()`);
    }
  }
}
