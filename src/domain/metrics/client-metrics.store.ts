import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors';
import { ClientApplicationSchema } from './application.entity';
import { APPLICATION_COLUMNS, type ApplicationDbRow } from './application.read-model';

/**
 * The writes of applications, their instances and the usage counts SDKs report (issue 14), and the load-or-404 of an
 * application. client-metrics.service.ts (registration and the admin API's changes) and metrics-writer.ts (a flush of
 * the metrics buffer) say what each is for.
 */

/** An application by name; 404 NotFoundError when there is none. */
export async function loadApplication(em: EntityManager, appName: string): Promise<ApplicationDbRow> {
  // SQL: the row as the writes below return it (`returning APPLICATION_COLUMNS`), mapped by the one toApplication.
  const [row]: ApplicationDbRow[] = await em.execute(`select ${APPLICATION_COLUMNS} from client_applications where app_name = ?`, [appName]);
  if (!row) throw new NotFoundError(`Could not find application with appName ${appName}`);
  return row;
}

// ---- registration and the admin API ------------------------------------------------------------------------

/** The application of a registration, when it is new (the unique key decides which of concurrent ones creates it). */
export async function insertRegisteredApplication(tx: EntityManager, appName: string, strategies: string, createdBy: string): Promise<ApplicationDbRow[]> {
  return tx.execute(
    `insert into client_applications (app_name, strategies, created_by, seen_at) values (?, ?::jsonb, ?, now())
     on conflict (app_name) do nothing returning ${APPLICATION_COLUMNS}`,
    [appName, strategies, createdBy]);
}

/** An existing application's strategies become the registration's; it was seen now. */
export async function updateRegisteredApplication(tx: EntityManager, appName: string, strategies: string): Promise<void> {
  // SQL: times that only move forward (`greatest`) and a change time set only when the strategies changed.
  await tx.execute(`update client_applications set strategies = ?::jsonb, seen_at = greatest(seen_at, now()),
    updated_at = case when strategies = ?::jsonb then updated_at else now() end where app_name = ?`, [strategies, strategies, appName]);
}

/** What a registration says of the instance it comes from. */
export interface RegisteredInstance {
  appName: string;
  environment: string;
  instanceId: string;
  sdkVersion: string | null;
  clientIp: string;
  started: string;
  intervalMs: number;
  /** The token's projects, as JSON. */
  projects: string;
}

export async function upsertRegisteredInstance(tx: EntityManager, i: RegisteredInstance): Promise<void> {
  await tx.execute(
    `insert into client_instances (app_name, environment, instance_id, sdk_version, client_ip, started_at, interval_ms, projects, seen_at)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, now())
     on conflict (app_name, environment, instance_id) do update set sdk_version = excluded.sdk_version, client_ip = excluded.client_ip,
       started_at = excluded.started_at, interval_ms = excluded.interval_ms, projects = excluded.projects, seen_at = greatest(client_instances.seen_at, now())`,
    [i.appName, i.environment, i.instanceId, i.sdkVersion, i.clientIp, i.started, i.intervalMs, i.projects]);
}

/** The application, when it is new. */
export async function insertApplication(tx: EntityManager, appName: string, createdBy: string): Promise<ApplicationDbRow[]> {
  return tx.execute(
    `insert into client_applications (app_name, created_by) values (?, ?) on conflict (app_name) do nothing returning ${APPLICATION_COLUMNS}`,
    [appName, createdBy]);
}

/** The details of an application the admin API may change; absent: untouched, null: emptied. */
export interface ApplicationChanges {
  description?: string | null;
  url?: string | null;
  color?: string | null;
  icon?: string | null;
  /** Strategy names, as JSON. */
  strategies?: string;
}

/** Writes what `changes` holds and returns the row after it; null (and no statement) when it holds nothing. */
export async function updateApplicationDetails(tx: EntityManager, appName: string, changes: ApplicationChanges): Promise<ApplicationDbRow[] | null> {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const column of ['description', 'url', 'color', 'icon'] as const) {
    if (changes[column] !== undefined) {
      sets.push(`${column} = ?`);
      values.push(changes[column]);
    }
  }
  if (changes.strategies !== undefined) {
    sets.push('strategies = ?::jsonb');
    values.push(changes.strategies);
  }
  if (sets.length === 0) return null;
  // SQL: `update … returning` the row after it, with the database's time.
  return tx.execute(`update client_applications set ${sets.join(', ')}, updated_at = now() where app_name = ? returning ${APPLICATION_COLUMNS}`, [...values, appName]);
}

/** Deletes the application (its instances go with it); false when there was none. */
export async function deleteApplicationRow(tx: EntityManager, appName: string): Promise<boolean> {
  return (await tx.nativeDelete(ClientApplicationSchema, { appName })) > 0;
}

// ---- a flush of the metrics buffer --------------------------------------------------------------------------

/**
 * A statement with its values sent as bind parameters of the transaction's connection. MikroORM's `execute` writes
 * values into the SQL text (escaping each one); a flush's lists are one jsonb value of up to a few MB, which would be
 * escaped character by character on the event loop.
 */
export async function bound<T = unknown>(tx: EntityManager, sql: string, values: unknown[]): Promise<T[]> {
  const trx = tx.getTransactionContext<Knex.Transaction>();
  if (!trx) return tx.execute(sql, values);
  return ((await trx.raw(sql, values as Knex.RawBinding[])) as { rows: T[] }).rows;
}

/**
 * A report counts only for features of its token's projects (`r.p`, the token's list, `["*"]` for all): a client token
 * of one project cannot write usage (nor "last seen") onto another project's features. Unknown features are dropped
 * by the same join. Reports of tokens of different projects are kept apart in the buffer and summed here.
 */
const TOKEN_COVERS = `(r.p @> '["*"]'::jsonb or r.p @> jsonb_build_array(x.project))`;

/**
 * Each list below travels as one jsonb parameter (JSON of its records) and is unpacked with `jsonb_to_recordset`, so a
 * flush is a fixed number of statements whatever the number of reports behind it. Counts are added in the database,
 * times only move forward, and every statement meets its rows in key order.
 */

/** The features reported, locked by name (`for no key update`), as every change of a feature does (change.ts rule 3). */
export async function lockReportedFeatures(tx: EntityManager, features: string): Promise<void> {
  await bound(tx, `select 1 from features where name in (select value from jsonb_array_elements_text(?::jsonb)) order by name for no key update`, [features]);
}

/** Moves features' and their environments' "last seen" forward (`seen`: records `{f, e, t, p}`). */
export async function updateLastSeen(tx: EntityManager, seen: string): Promise<void> {
  await bound(tx,
    `update features f set last_seen_at = s.t
       from (select r.f, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(f text, e text, t timestamptz, p jsonb)
               join features x on x.name = r.f and ${TOKEN_COVERS} group by r.f) s
      where f.name = s.f and (f.last_seen_at is null or f.last_seen_at < s.t)`,
    [seen]);
  await bound(tx,
    `update feature_environments fe set last_seen_at = s.t
       from (select r.f, r.e, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(f text, e text, t timestamptz, p jsonb)
               join features x on x.name = r.f and ${TOKEN_COVERS} group by r.f, r.e) s
      where fe.feature_name = s.f and fe.environment = s.e and (fe.last_seen_at is null or fe.last_seen_at < s.t)`,
    [seen]);
}

/**
 * The lifecycle stages reports enter (issue 44): pre-live for a flag reported anywhere, live (and pre-live, which it
 * passes through) for one reported in a production environment, each at its first report; entered once.
 */
export async function enterReportedStages(tx: EntityManager, seen: string): Promise<void> {
  await bound(tx,
    `insert into feature_lifecycles (feature_name, stage, entered_at)
     select r.f, st.stage, min(r.t) from jsonb_to_recordset(?::jsonb) as r(f text, e text, t timestamptz, p jsonb)
       join features x on x.name = r.f and ${TOKEN_COVERS}
       join environments e on e.name = r.e
       cross join lateral (values ('pre-live'), ('live')) as st(stage)
      where st.stage = 'pre-live' or e.type = 'production'
      group by r.f, st.stage
      order by r.f, st.stage
     on conflict (feature_name, stage) do nothing`,
    [seen]);
}

/** Adds hourly counts (`counts`: records `{f, a, e, h, y, n, p}`). */
export async function addHourlyCounts(tx: EntityManager, counts: string): Promise<void> {
  await bound(tx,
    `insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
     select r.f, r.a, r.e, r.h, sum(r.y), sum(r.n) from jsonb_to_recordset(?::jsonb) as r(f text, a text, e text, h timestamptz, y bigint, n bigint, p jsonb)
       join features x on x.name = r.f and ${TOKEN_COVERS}
      group by r.f, r.a, r.e, r.h
      order by r.f, r.a, r.e, r.h
     on conflict (feature_name, app_name, environment, hour)
     do update set yes = client_metrics_hourly.yes + excluded.yes, no = client_metrics_hourly.no + excluded.no`,
    [counts]);
}

/** Adds hourly variant counts, for hours with counts (`variants`: records `{f, a, e, h, v, c, p}`). */
export async function addHourlyVariantCounts(tx: EntityManager, variants: string): Promise<void> {
  await bound(tx,
    `insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count)
     select r.f, r.a, r.e, r.h, r.v, sum(r.c) from jsonb_to_recordset(?::jsonb) as r(f text, a text, e text, h timestamptz, v text, c bigint, p jsonb)
       join features x on x.name = r.f and ${TOKEN_COVERS}
      where exists (select 1 from client_metrics_hourly m where m.feature_name = r.f and m.app_name = r.a and m.environment = r.e and m.hour = r.h)
      group by r.f, r.a, r.e, r.h, r.v
      order by r.f, r.a, r.e, r.h, r.v
     on conflict (feature_name, app_name, environment, hour, variant)
     do update set count = client_metrics_hourly_variants.count + excluded.count`,
    [variants]);
}

/**
 * The applications first seen through their metrics (their SDK did not register, or registered elsewhere first), as
 * created (`instances`: records `{a, e, i, ip, p, by, f, t}`, `f` the instance's first report held, `t` its latest).
 * An application is created at its first report and seen at its latest, not at the flush's time (later than both).
 */
export async function insertReportingApplications(tx: EntityManager, instances: string): Promise<ApplicationDbRow[]> {
  return bound(tx,
    `insert into client_applications (app_name, created_by, created_at, updated_at, seen_at)
     select distinct on (r.a) r.a, r.by, min(r.f) over app, min(r.f) over app, max(r.t) over app
       from jsonb_to_recordset(?::jsonb) as r(a text, by text, f timestamptz, t timestamptz)
     window app as (partition by r.a)
      order by r.a, r.t desc
     on conflict (app_name) do nothing
     returning ${APPLICATION_COLUMNS}`,
    [instances]);
}

/** Moves applications' "seen" forward and writes their reporting instances (the same records; a new one created at `f`). */
export async function upsertReportingInstances(tx: EntityManager, instances: string): Promise<void> {
  await bound(tx,
    `update client_applications ca set seen_at = s.t
       from (select r.a, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(a text, t timestamptz) group by r.a) s
      where ca.app_name = s.a and (ca.seen_at is null or ca.seen_at < s.t)`,
    [instances]);
  await bound(tx,
    `insert into client_instances (app_name, environment, instance_id, client_ip, projects, created_at, seen_at)
     select r.a, r.e, r.i, r.ip, r.p, r.f, r.t from jsonb_to_recordset(?::jsonb) as r(a text, e text, i text, ip text, p jsonb, f timestamptz, t timestamptz)
      where exists (select 1 from client_applications where app_name = r.a)
      order by r.a, r.e, r.i
     on conflict (app_name, environment, instance_id)
     do update set client_ip = excluded.client_ip, projects = excluded.projects, seen_at = greatest(client_instances.seen_at, excluded.seen_at)`,
    [instances]);
}

/**
 * Deletes hourly counts (and their variant counts) older than the retention, and instances silent for longer than
 * it or two days, whichever is shorter. Any number of instances may run it at once: a row another one deleted first
 * is simply gone.
 */
export async function pruneMetrics(tx: EntityManager, retentionHours: number): Promise<void> {
  // Counts are kept for 30-day charts (issue 44); a stopped SDK leaves its application's instance list after two
  // days, as in Unleash, rather than lingering there for the charts' sake.
  const instanceHours = Math.min(retentionHours, 48);
  // SQL: part of the metrics flush (its hot path), and an age reckoned by the database's clock.
  await tx.execute(`delete from client_metrics_hourly where hour < now() - make_interval(hours => ?)`, [retentionHours]);
  await tx.execute(`delete from client_instances where seen_at < now() - make_interval(hours => ?)`, [instanceHours]);
}
