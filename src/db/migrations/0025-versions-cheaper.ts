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
 * - The states were computed while holding the counter's lock, so concurrent commits waited for each other's states
 *   (4 writers: 17% slower than without versions); now they are computed before it.
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

/**
 * The states a transaction's versions record, computed before the counter's lock: commits queue on that lock, so it is
 * held only to number and write them. The statement reads the revision its snapshot saw (`seen`); a commit that could
 * have changed a flag (segment) after that has a revision between `seen` and this one, and the log names what it
 * touched, so only those states are computed again under the lock (none when nothing else committed in between).
 */
const ADVANCE = `create or replace function model_version_advance() returns bigint language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  v bigint;
  seen bigint;
  feature_keys text[];
  feature_states jsonb[];
  segment_keys integer[];
  segment_states jsonb[];
begin
  select coalesce((select version from model_version where id = 1), 0), f.keys, f.states, s.keys, s.states
    into seen, feature_keys, feature_states, segment_keys, segment_states
    from (select array_agg(k.key order by k.key) as keys, array_agg(feature_version_state(k.key) order by k.key) as states
            from (select distinct key from client_changes where txid = tx and kind = 'f') k) f,
         (select array_agg(k.id order by k.id) as keys, array_agg(segment_version_state(k.id) order by k.id) as states
            from (select distinct key::integer as id from client_changes where txid = tx and kind = 's') k) s;
  insert into model_version (id, version) values (1, 1)
  on conflict (id) do update set version = model_version.version + 1
  returning version into v;
  insert into client_revisions (revision, txid) values (v, tx) on conflict (revision) do nothing;
  perform history_record(v, seen, feature_keys, feature_states, segment_keys, segment_states);
  if v % 256 = 0 then perform client_revisions_prune(v); end if;
  perform pg_notify('flagdeck_model_version', '');
  return v;
end $$`;

const RECORD = `create function history_record(v bigint, seen bigint, feature_keys text[], feature_states jsonb[],
                               segment_keys integer[], segment_states jsonb[]) returns void language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  at timestamptz := date_trunc('milliseconds', clock_timestamp());
  -- Whether commits after the snapshot may have changed what was computed; all of it when the log no longer reaches back.
  moved boolean := seen < v - 1;
  stale boolean := seen < v - 1 and coalesce((select revision from client_revision_horizon where id = 1), 0) > seen;
  s jsonb;
  last_version integer;
  last_state jsonb;
begin
  for i in 1 .. coalesce(array_length(feature_keys, 1), 0) loop
    s := feature_states[i];
    if stale or (moved and exists (select 1 from client_revisions r join client_changes c on c.txid = r.txid
                                    where r.revision > seen and r.revision < v and c.kind = 'f' and c.key = feature_keys[i])) then
      s := feature_version_state(feature_keys[i]);
    end if;
    select fv.version, fv.state into last_version, last_state
      from feature_versions fv where fv.feature_name = feature_keys[i] order by fv.version desc limit 1;
    if (last_version is null and s is not null) or (last_version is not null and last_state is distinct from s) then
      insert into feature_versions (feature_name, version, revision, committed_at, txid, state)
      values (feature_keys[i], coalesce(last_version, 0) + 1, v, at, tx, s);
    end if;
  end loop;
  for i in 1 .. coalesce(array_length(segment_keys, 1), 0) loop
    s := segment_states[i];
    if stale or (moved and exists (select 1 from client_revisions r join client_changes c on c.txid = r.txid
                                    where r.revision > seen and r.revision < v and c.kind = 's' and c.key = segment_keys[i]::text)) then
      s := segment_version_state(segment_keys[i]);
    end if;
    select sv.version, sv.state into last_version, last_state
      from segment_versions sv where sv.segment_id = segment_keys[i] order by sv.version desc limit 1;
    if (last_version is null and s is not null) or (last_version is not null and last_state is distinct from s) then
      insert into segment_versions (segment_id, version, revision, committed_at, txid, state)
      values (segment_keys[i], coalesce(last_version, 0) + 1, v, at, tx, s);
    end if;
  end loop;
end $$`;

export class Migration0025VersionsCheaper extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function history_iso(t timestamptz) returns text language sql stable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$`);
    this.addSql(FEATURE_STATE);
    this.addSql(`drop function history_record(bigint)`);
    this.addSql(RECORD);
    this.addSql(ADVANCE);
    // About four log rows per transaction (a row per changed row); a negative n_distinct is that ratio, kept by ANALYZE.
    this.addSql(`alter table client_changes alter column txid set (n_distinct = -0.25)`);
    this.addSql(`analyze client_changes`);
  }
}
