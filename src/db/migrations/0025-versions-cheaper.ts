import { Migration } from '@mikro-orm/migrations';

/**
 * Recording versions at commit (migration 0024) cost more than the write it records; four causes, each measured on
 * the write bench (the functions below replace 0024's; feature_version_state() returns the same value as before):
 * - `history_iso()` was declared immutable over `to_char` (stable), so it could not be inlined and ran as a function
 *   call per timestamp; declared stable, it is inlined.
 * - The state was built as jsonb at every level, and each enclosing jsonb_build_object / jsonb_agg copies what it
 *   wraps again; built as json text and parsed once at the end it is the same value. Strategies are read once per
 *   flag, grouped by environment, instead of once per environment.
 * - `history_record()` ran two statements whose plans hinged on the `client_changes.txid` estimate; its statistics come
 *   from a sample where seeding or an import wrote thousands of rows in one transaction, so every commit planned them
 *   again. Now a loop over the keys runs simple statements whose plans are kept, and the column says what it holds in
 *   steady state: a handful of rows per transaction.
 * - The states were worked out while holding the revision counter's lock (see ADVANCE).
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
 * Versions are worked out before the revision counter's lock: commits queue on that lock, so it is held only to number
 * and write them (with 4 writers, working them out under it made each commit wait for the others' states). Per flag
 * (segment) the transaction touched: its state, and the version that state is (null when it equals the last one). A
 * commit that could have changed one of them after this transaction's snapshot took its revision between the revision
 * that snapshot saw and this one, and the revision log names what it touched: only those are worked out again, under
 * the lock (none when nothing committed in between). Replaces `history_record()`.
 */
const ADVANCE = `create or replace function model_version_advance() returns bigint language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  -- The revision this transaction's snapshot has seen: states read after this include every commit up to it.
  seen bigint := coalesce((select version from model_version where id = 1), 0);
  v bigint;
  at timestamptz;
  change record;
  kinds char[] := '{}';
  keys text[] := '{}';
  states jsonb[] := '{}';
  nexts integer[] := '{}';
  due boolean[] := '{}';
  n integer := 0;
  s jsonb;
  last_version integer;
  last_state jsonb;
  stale boolean;
begin
  for change in select distinct c.kind, c.key from client_changes c where c.txid = tx loop
    n := n + 1;
    kinds[n] := change.kind;
    keys[n] := change.key;
    due[n] := true;
  end loop;
  -- Twice at most: every change before the lock, then those a commit in between may have changed.
  loop
    for i in 1 .. n loop
      continue when not due[i];
      if kinds[i] = 'f' then
        s := feature_version_state(keys[i]);
        select fv.version, fv.state into last_version, last_state from feature_versions fv where fv.feature_name = keys[i] order by fv.version desc limit 1;
      else
        s := segment_version_state(keys[i]::integer);
        select sv.version, sv.state into last_version, last_state from segment_versions sv where sv.segment_id = keys[i]::integer order by sv.version desc limit 1;
      end if;
      states[i] := s;
      nexts[i] := case when (last_version is null and s is not null) or (last_version is not null and last_state is distinct from s) then coalesce(last_version, 0) + 1 end;
      due[i] := false;
    end loop;
    exit when v is not null;
    insert into model_version (id, version) values (1, 1)
    on conflict (id) do update set version = model_version.version + 1
    returning version into v;
    exit when seen = v - 1;
    -- The log names what each commit since seen touched, unless it no longer reaches back that far.
    stale := coalesce((select revision from client_revision_horizon where id = 1), 0) > seen;
    for i in 1 .. n loop
      due[i] := stale or exists (select 1 from client_revisions r join client_changes c on c.txid = r.txid
                                  where r.revision > seen and r.revision < v and c.kind = kinds[i] and c.key = keys[i]);
    end loop;
  end loop;
  insert into client_revisions (revision, txid) values (v, tx) on conflict (revision) do nothing;
  at := date_trunc('milliseconds', clock_timestamp());
  for i in 1 .. n loop
    continue when nexts[i] is null;
    if kinds[i] = 'f' then
      insert into feature_versions (feature_name, version, revision, committed_at, txid, state) values (keys[i], nexts[i], v, at, tx, states[i]);
    else
      insert into segment_versions (segment_id, version, revision, committed_at, txid, state) values (keys[i]::integer, nexts[i], v, at, tx, states[i]);
    end if;
  end loop;
  if v % 256 = 0 then perform client_revisions_prune(v); end if;
  perform pg_notify('flagdeck_model_version', '');
  return v;
end $$`;

export class Migration0025VersionsCheaper extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function history_iso(t timestamptz) returns text language sql stable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$`);
    this.addSql(FEATURE_STATE);
    this.addSql(ADVANCE);
    this.addSql(`drop function history_record(bigint)`);
    // About four log rows per transaction (a row per changed row); a negative n_distinct is that ratio, kept by ANALYZE.
    this.addSql(`alter table client_changes alter column txid set (n_distinct = -0.25)`);
    this.addSql(`analyze client_changes`);
  }
}
