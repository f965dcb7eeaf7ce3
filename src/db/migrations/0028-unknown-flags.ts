import { Migration } from '@mikro-orm/migrations';

/**
 * Unknown flags (issue 44): names SDKs report in their metrics that no flag has, per application and environment,
 * with when they were last reported. Bounded: at most 1000 names (the least recently reported go first) and nothing
 * older than 7 days; a name that became a flag goes at the next prune. `unknown_flags_record()` writes a flush's names and prunes in one call, so the metrics flush stays
 * a fixed number of statements.
 */
export class Migration0028UnknownFlags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table unknown_flags (
  name text not null,
  app_name text not null,
  environment text not null,
  seen_at timestamptz not null,
  primary key (name, app_name, environment)
)`);
    this.addSql(`create index unknown_flags_seen_at_idx on unknown_flags (seen_at)`);
    // counts: the flush's records {f, a, e, h, …}; seen: {f, e, t, …} (the latest report per flag and environment).
    this.addSql(`create function unknown_flags_record(counts jsonb, seen jsonb, max_names integer, keep interval) returns void language plpgsql as $$
begin
  insert into unknown_flags (name, app_name, environment, seen_at)
  select r.f, r.a, r.e, max(coalesce(s.t, r.h))
    from jsonb_to_recordset(counts) as r(f text, a text, e text, h timestamptz)
    left join jsonb_to_recordset(seen) as s(f text, e text, t timestamptz) on s.f = r.f and s.e = r.e
   where not exists (select 1 from features x where x.name = r.f)
   group by r.f, r.a, r.e
   order by r.f, r.a, r.e
  on conflict (name, app_name, environment) do update set seen_at = greatest(unknown_flags.seen_at, excluded.seen_at);
  if not found then return; end if;
  delete from unknown_flags u where u.seen_at < now() - keep or exists (select 1 from features x where x.name = u.name);
  delete from unknown_flags where name in (
    select name from unknown_flags group by name order by max(seen_at) desc, name offset max_names);
end $$`);
  }
}
