import { Migration } from '@mikro-orm/migrations';

/** A time as fixed-width ISO 8601 text in UTC with microseconds: sorts as it compares, reads as `new Date(...)` does. */
const ISO = `create function history_iso(t timestamptz) returns text language sql immutable as $$
  select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$`;

/**
 * A feature's whole configuration as one jsonb value (null when it does not exist): its row, tags and parents, and per
 * environment it has a row or strategies in, the switch, variants and strategies in evaluation order (sort order,
 * creation, id, as every read orders them) with their segment ids. Lists are ordered, so equal configurations are equal
 * values. The column values are kept as stored; readers map them as they map the live rows. PL/pgSQL, not SQL: its
 * statement's plan is kept for the session, where a SQL function's is made again at every call (twice the time).
 */
const FEATURE_STATE = `create function feature_version_state(wanted text) returns jsonb language plpgsql stable as $$
begin
  return (select jsonb_build_object(
  'name', f.name, 'project', f.project, 'type', f.type, 'description', f.description, 'stale', f.stale,
  'impressionData', f.impression_data, 'createdAt', history_iso(f.created_at), 'archivedAt', history_iso(f.archived_at),
  'tags', coalesce((select jsonb_agg(jsonb_build_object('type', t.tag_type, 'value', t.tag_value) order by t.tag_type, t.tag_value)
                      from feature_tags t where t.feature_name = f.name), '[]'::jsonb),
  'dependencies', coalesce((select jsonb_agg(jsonb_build_object('feature', d.parent, 'enabled', d.enabled, 'variants', d.variants) order by d.parent)
                      from feature_dependencies d where d.child = f.name), '[]'::jsonb),
  'environments', coalesce((
    select jsonb_agg(jsonb_build_object(
             'name', e.environment, 'configured', fe.feature_name is not null, 'enabled', coalesce(fe.enabled, false),
             'variants', coalesce(fe.variants, '[]'::jsonb),
             'strategies', coalesce((
               select jsonb_agg(jsonb_build_object(
                        'id', fs.id, 'name', fs.strategy_name, 'title', fs.title, 'disabled', fs.disabled, 'sortOrder', fs.sort_order,
                        'parameters', fs.parameters, 'constraints', fs.constraints, 'variants', fs.variants,
                        'segments', coalesce((select jsonb_agg(fss.segment_id order by fss.segment_id)
                                                from feature_strategy_segments fss where fss.feature_strategy_id = fs.id), '[]'::jsonb))
                      order by fs.sort_order, fs.created_at, fs.id)
                 from feature_strategies fs where fs.feature_name = f.name and fs.environment = e.environment), '[]'::jsonb))
           order by e.environment)
      from (select fe2.environment from feature_environments fe2 where fe2.feature_name = f.name
            union select fs2.environment from feature_strategies fs2 where fs2.feature_name = f.name) e
      left join feature_environments fe on fe.feature_name = f.name and fe.environment = e.environment), '[]'::jsonb))
  from features f where f.name = wanted);
end $$`;

const SEGMENT_STATE = `create function segment_version_state(wanted integer) returns jsonb language plpgsql stable as $$
begin
  return (select jsonb_build_object('id', s.id, 'name', s.name, 'description', s.description, 'project', s.project,
                                    'constraints', s.constraints, 'createdAt', history_iso(s.created_at))
            from segments s where s.id = wanted);
end $$`;

/**
 * Versions (issue 43): every committed change of a feature's or segment's configuration records its whole new state,
 * numbered per feature (per segment), with the revision of the change (`model_version`), its commit time and its
 * transaction (the `txid` now written on each event names the events that made it).
 *
 * Recorded by `model_version_advance()` at commit (migration 0023): the revision log already names every feature and
 * segment the transaction touched, however it was written (the API or plain SQL), and the counter's row lock orders
 * commits, so versions are numbered and timed in commit order. The commit time is `clock_timestamp()` taken under that
 * lock, truncated to milliseconds (as the API writes times), so an instant read back from a version finds that version.
 * A state equal to the previous version's records nothing. Versions of what existed before this migration start at
 * its instant (`history_horizon.since`: nothing before it can be described); pruning moves that instant forward.
 */
export class Migration0024Versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table events add column txid xid8`);
    this.addSql(`alter table events alter column txid set default pg_current_xact_id()`);
    this.addSql(`create index events_txid_idx on events (txid) where txid is not null`);
    // An event written by a revert names the version it brought back.
    this.addSql(`alter table events add column revert_of jsonb`);

    this.addSql(`create table feature_versions (
  feature_name text not null,
  version integer not null,
  revision bigint not null,
  committed_at timestamptz not null,
  txid xid8 not null,
  state jsonb,
  primary key (feature_name, version))`);
    // Which version of each flag was current at an instant, read from the index alone (no state is read for the others).
    this.addSql(`create index feature_versions_committed_at_idx on feature_versions (committed_at) include (feature_name, version, revision)`);
    // A flag's children at an instant: the few versions that hold dependencies, found without reading every state.
    this.addSql(`create index feature_versions_dependencies_idx on feature_versions using gin ((state->'dependencies') jsonb_path_ops)
  where state->'dependencies' <> '[]'::jsonb`);
    this.addSql(`create table segment_versions (
  segment_id integer not null,
  version integer not null,
  revision bigint not null,
  committed_at timestamptz not null,
  txid xid8 not null,
  state jsonb,
  primary key (segment_id, version))`);
    this.addSql(`create index segment_versions_committed_at_idx on segment_versions (committed_at) include (segment_id, version, revision)`);
    // States are read in bulk (a client answer at an instant reads one per flag): lz4 decompresses several times faster
    // than the default pglz, where the server has it (PGlite has not: it keeps pglz).
    this.addSql(`do $$ begin
  alter table feature_versions alter column state set compression lz4;
  alter table segment_versions alter column state set compression lz4;
exception when feature_not_supported or invalid_parameter_value then null;
end $$`);
    this.addSql(`create table history_horizon (id integer primary key check (id = 1), since timestamptz not null)`);

    this.addSql(ISO);
    this.addSql(FEATURE_STATE);
    this.addSql(SEGMENT_STATE);
    // Each state is computed once (a materialized CTE: inlined, the planner would call the function again for each
    // mention of it in the filter).
    this.addSql(`create function history_record(v bigint) returns void language plpgsql as $$
declare
  tx xid8 := pg_current_xact_id();
  at timestamptz := date_trunc('milliseconds', clock_timestamp());
begin
  with c as materialized (
    select k.key, feature_version_state(k.key) as state
      from (select distinct key from client_changes where txid = tx and kind = 'f') k)
  insert into feature_versions (feature_name, version, revision, committed_at, txid, state)
  select c.key, coalesce(last.version, 0) + 1, v, at, tx, c.state
    from c left join lateral (select fv.version, fv.state from feature_versions fv where fv.feature_name = c.key order by fv.version desc limit 1) last on true
   where (last.version is null and c.state is not null) or (last.version is not null and last.state is distinct from c.state);
  with c as materialized (
    select k.id, segment_version_state(k.id) as state
      from (select distinct key::integer as id from client_changes where txid = tx and kind = 's') k)
  insert into segment_versions (segment_id, version, revision, committed_at, txid, state)
  select c.id, coalesce(last.version, 0) + 1, v, at, tx, c.state
    from c left join lateral (select sv.version, sv.state from segment_versions sv where sv.segment_id = c.id order by sv.version desc limit 1) last on true
   where (last.version is null and c.state is not null) or (last.version is not null and last.state is distinct from c.state);
end $$`);
    // Truncation writes no row changes: every feature and segment that is gone gets its "deleted" version.
    this.addSql(`create function history_record_truncated(v bigint) returns void language plpgsql as $$
declare
  at timestamptz := date_trunc('milliseconds', clock_timestamp());
begin
  insert into feature_versions (feature_name, version, revision, committed_at, txid, state)
  select l.feature_name, l.version + 1, v, at, pg_current_xact_id(), feature_version_state(l.feature_name)
    from (select distinct on (feature_name) feature_name, version, state from feature_versions order by feature_name, version desc) l
   where l.state is distinct from feature_version_state(l.feature_name);
  insert into segment_versions (segment_id, version, revision, committed_at, txid, state)
  select l.segment_id, l.version + 1, v, at, pg_current_xact_id(), segment_version_state(l.segment_id)
    from (select distinct on (segment_id) segment_id, version, state from segment_versions order by segment_id, version desc) l
   where l.state is distinct from segment_version_state(l.segment_id);
end $$`);
    this.addSql(`create or replace function model_version_advance() returns bigint language plpgsql as $$
declare
  v bigint;
begin
  insert into model_version (id, version) values (1, 1)
  on conflict (id) do update set version = model_version.version + 1
  returning version into v;
  insert into client_revisions (revision, txid) values (v, pg_current_xact_id()) on conflict (revision) do nothing;
  perform history_record(v);
  if v % 256 = 0 then perform client_revisions_prune(v); end if;
  perform pg_notify('flagdeck_model_version', '');
  return v;
end $$`);
    this.addSql(`create or replace function model_version_bump_truncated() returns trigger language plpgsql as $$
declare
  v bigint := model_version_advance();
begin
  insert into client_revision_horizon (id, revision) values (1, v)
  on conflict (id) do update set revision = excluded.revision;
  perform history_record_truncated(v);
  return null;
end $$`);

    // Versions pass their keeping time in the background: per feature (segment), the last version at or before the cut
    // stays (an instant after the cut needs it) unless it records the deletion; what is older goes.
    this.addSql(`create function history_prune(cut timestamptz) returns integer language plpgsql as $$
declare
  gone integer := 0;
  n integer;
begin
  delete from feature_versions fv
   using (select feature_name, max(version) as keep from feature_versions where committed_at <= cut group by feature_name) k
   where fv.feature_name = k.feature_name and fv.version < k.keep;
  get diagnostics n = row_count; gone := gone + n;
  delete from feature_versions where committed_at <= cut and state is null;
  get diagnostics n = row_count; gone := gone + n;
  delete from segment_versions sv
   using (select segment_id, max(version) as keep from segment_versions where committed_at <= cut group by segment_id) k
   where sv.segment_id = k.segment_id and sv.version < k.keep;
  get diagnostics n = row_count; gone := gone + n;
  delete from segment_versions where committed_at <= cut and state is null;
  get diagnostics n = row_count; gone := gone + n;
  insert into history_horizon (id, since) values (1, cut) on conflict (id) do update set since = greatest(history_horizon.since, excluded.since);
  return gone;
end $$`);

    // What exists now is its first version, at this instant.
    const revision = `coalesce((select version from model_version where id = 1), 0)`;
    const now = `date_trunc('milliseconds', now())`;
    this.addSql(`insert into feature_versions (feature_name, version, revision, committed_at, txid, state)
  select name, 1, ${revision}, ${now}, pg_current_xact_id(), feature_version_state(name) from features`);
    this.addSql(`insert into segment_versions (segment_id, version, revision, committed_at, txid, state)
  select id, 1, ${revision}, ${now}, pg_current_xact_id(), segment_version_state(id) from segments`);
    this.addSql(`insert into history_horizon (id, since) select 1, ${now} where exists (select 1 from features) or exists (select 1 from segments)`);
  }
}
