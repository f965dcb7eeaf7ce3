import { Migration } from '@mikro-orm/migrations';

/**
 * Flag lifecycle (issue 44, as Unleash 6.2 defines it): the stages a flag entered and when. `initial` and `archived`
 * are the flag's own `created_at` and `archived_at`; the rows hold the stages entered later: `pre-live` (switched on,
 * or reported by an SDK, in an environment that is not of type production), `live` (reported in production) and
 * `completed` (marked by a user as kept or discarded). A stage is entered once; completing again updates its status.
 *
 * Existing flags get the stages their data shows: a report in production makes them live (and pre-live, which live
 * passes through), one elsewhere or a switched-on environment pre-live. The first hour with counts is the best
 * instant kept of when that happened, else the last report, else the flag's creation.
 */
export class Migration0027FeatureLifecycle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table feature_lifecycles (
  feature_name text not null references features (name) on delete cascade on update cascade,
  stage text not null check (stage in ('pre-live', 'live', 'completed')),
  status text check ((stage = 'completed') = (status is not null) and status in ('kept', 'discarded')),
  status_value text,
  entered_at timestamptz not null default now(),
  primary key (feature_name, stage)
)`);
    this.addSql(`with seen as (
  select fe.feature_name, e.type = 'production' as production, fe.enabled,
         coalesce((select min(m.hour) from client_metrics_hourly m where m.feature_name = fe.feature_name and m.environment = fe.environment),
                  fe.last_seen_at) as at
    from feature_environments fe join environments e on e.name = fe.environment
)
insert into feature_lifecycles (feature_name, stage, entered_at)
select s.feature_name, stage.name, min(coalesce(s.at, f.created_at))
  from seen s join features f on f.name = s.feature_name
  cross join lateral (values ('pre-live'), ('live')) stage(name)
 where (stage.name = 'pre-live' and (s.at is not null or (s.enabled and not s.production)))
    or (stage.name = 'live' and s.production and s.at is not null)
 group by s.feature_name, stage.name`);
  }
}
