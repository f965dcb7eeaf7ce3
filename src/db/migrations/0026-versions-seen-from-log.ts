import { Migration } from '@mikro-orm/migrations';

/**
 * Two more costs of recording versions at commit (migration 0025), measured on the embedded database, where each
 * statement costs the most (bench/writes-ab.ts pairs the write path with the one before versions):
 * - The revision a transaction's snapshot has seen was read from `model_version`, whose one row every commit updates:
 *   with no autovacuum (PGlite), the read walked the row's chain of dead versions. The revision log is insert-only and
 *   holds the same number as its newest row.
 * - A strategy's segments were a subquery per strategy; they are now read once per flag and joined.
 * feature_version_state() returns the same value as before.
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
                 'segments', coalesce(g.segments, '[]'::json))
               order by fs.sort_order, fs.created_at, fs.id) as strategies
          from feature_strategies fs
          left join (select fss.feature_strategy_id, json_agg(fss.segment_id order by fss.segment_id) as segments
                       from feature_strategy_segments fss join feature_strategies x on x.id = fss.feature_strategy_id
                      where x.feature_name = wanted group by fss.feature_strategy_id) g on g.feature_strategy_id = fs.id
         where fs.feature_name = f.name group by fs.environment) s on s.environment = fe.environment), '[]'::json))
  from features f where f.name = wanted)::jsonb;
end $$`;

const ADVANCE = `create or replace function model_version_advance() returns bigint language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  -- The revision this transaction's snapshot has seen: states read after this include every commit up to it. Each
  -- revision's log row commits with it, in order, so the newest one visible is that revision.
  seen bigint := coalesce((select max(revision) from client_revisions), 0);
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

export class Migration0026VersionsSeenFromLog extends Migration {
  override async up(): Promise<void> {
    this.addSql(FEATURE_STATE);
    this.addSql(ADVANCE);
  }
}
