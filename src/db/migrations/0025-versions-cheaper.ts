import { Migration } from '@mikro-orm/migrations';

/**
 * Recording versions at commit (migration 0024) cost more than the write it records; three causes, each measured on
 * the write bench:
 * - `history_iso()` was declared immutable over `to_char` (stable), so it could not be inlined and ran as a function
 *   call per timestamp; declared stable, it is inlined.
 * - The state was built as jsonb at every level, and each enclosing jsonb_build_object / jsonb_agg copies what it
 *   wraps again; built as json text and parsed once at the end it is the same value. Strategies are read once per
 *   flag, grouped by environment, instead of once per environment.
 * - `history_record()` ran two statements whose plans hinged on the `client_changes.txid` estimate; its statistics come
 *   from a sample where seeding or an import wrote thousands of rows in one transaction, so every commit planned them
 *   again. Now a loop over the keys runs simple statements whose plans are kept, and the column says what it holds in
 *   steady state: a handful of rows per transaction.
 */
const FEATURE_STATE = `create or replace function feature_version_state(wanted text) returns jsonb language plpgsql stable as $$
begin
  return (select json_build_object(
  'name', f.name, 'project', f.project, 'type', f.type, 'description', f.description, 'stale', f.stale,
  'impressionData', f.impression_data, 'createdAt', history_iso(f.created_at), 'archivedAt', history_iso(f.archived_at),
  'tags', coalesce((select json_agg(json_build_object('type', t.tag_type, 'value', t.tag_value) order by t.tag_type, t.tag_value)
                      from feature_tags t where t.feature_name = f.name), '[]'::json),
  'dependencies', coalesce((select json_agg(json_build_object('feature', d.parent, 'enabled', d.enabled, 'variants', d.variants) order by d.parent)
                      from feature_dependencies d where d.child = f.name), '[]'::json),
  'environments', coalesce((
    select json_agg(json_build_object(
             'name', coalesce(fe.environment, s.environment), 'configured', fe.feature_name is not null,
             'enabled', coalesce(fe.enabled, false), 'variants', coalesce(fe.variants, '[]'::jsonb),
             'strategies', coalesce(s.strategies, '[]'::json))
           order by coalesce(fe.environment, s.environment))
      from (select fe.feature_name, fe.environment, fe.enabled, fe.variants from feature_environments fe where fe.feature_name = f.name) fe
      full join (
        select fs.environment, json_agg(json_build_object(
                 'id', fs.id, 'name', fs.strategy_name, 'title', fs.title, 'disabled', fs.disabled, 'sortOrder', fs.sort_order,
                 'parameters', fs.parameters, 'constraints', fs.constraints, 'variants', fs.variants,
                 'segments', coalesce((select json_agg(fss.segment_id order by fss.segment_id)
                                         from feature_strategy_segments fss where fss.feature_strategy_id = fs.id), '[]'::json))
               order by fs.sort_order, fs.created_at, fs.id) as strategies
          from feature_strategies fs where fs.feature_name = f.name group by fs.environment) s on s.environment = fe.environment), '[]'::json))
  from features f where f.name = wanted)::jsonb;
end $$`;

const RECORD = `create or replace function history_record(v bigint) returns void language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  at timestamptz := date_trunc('milliseconds', clock_timestamp());
  k text;
  s jsonb;
  last_version integer;
  last_state jsonb;
begin
  for k in select distinct key from client_changes where txid = tx and kind = 'f' loop
    s := feature_version_state(k);
    select fv.version, fv.state into last_version, last_state from feature_versions fv where fv.feature_name = k order by fv.version desc limit 1;
    if (last_version is null and s is not null) or (last_version is not null and last_state is distinct from s) then
      insert into feature_versions (feature_name, version, revision, committed_at, txid, state) values (k, coalesce(last_version, 0) + 1, v, at, tx, s);
    end if;
  end loop;
  for k in select distinct key from client_changes where txid = tx and kind = 's' loop
    s := segment_version_state(k::integer);
    select sv.version, sv.state into last_version, last_state from segment_versions sv where sv.segment_id = k::integer order by sv.version desc limit 1;
    if (last_version is null and s is not null) or (last_version is not null and last_state is distinct from s) then
      insert into segment_versions (segment_id, version, revision, committed_at, txid, state) values (k::integer, coalesce(last_version, 0) + 1, v, at, tx, s);
    end if;
  end loop;
end $$`;

export class Migration0025VersionsCheaper extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function history_iso(t timestamptz) returns text language sql stable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$`);
    this.addSql(FEATURE_STATE);
    this.addSql(RECORD);
    // About four log rows per transaction (a row per changed row); a negative n_distinct is that ratio, kept by ANALYZE.
    this.addSql(`alter table client_changes alter column txid set (n_distinct = -0.25)`);
    this.addSql(`analyze client_changes`);
  }
}
