import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { systemPrincipal } from '../access/principal';
import { change } from '../change';
import type { MetricsBatch } from './metrics-buffer';
import { APPLICATION_COLUMNS, applicationCreatedData, type ApplicationRow } from './applications';

/**
 * One flush of the metrics buffer: a fixed number of set-based statements in one transaction, whatever the number of
 * reports behind the batch (each list travels as one jsonb parameter and is unpacked with `jsonb_to_recordset`).
 *
 * Several instances flush the same keys at the same time: counts are added in the database
 * (`on conflict … do update set yes = client_metrics_hourly.yes + excluded.yes`), times only move forward
 * (`greatest`, or `where last_seen_at < …`), and every statement meets its rows in key order. The features reported
 * are locked first, by name (`for no key update`), as every change of a feature does (src/domain/change.ts rule 3),
 * so a flush and a change of the same feature wait for each other instead of deadlocking. Unknown features, and
 * features outside the reporting token's projects, are left out by the statements themselves (TOKEN_COVERS).
 *
 * Returns the number of applications it created (each with its `application-created` event, written in the same
 * transaction: the unique key decides which instance created an application, so the event is written once).
 */
/**
 * A statement with its values sent as bind parameters of the transaction's connection. MikroORM's `execute` writes
 * values into the SQL text (escaping each one); a flush's lists are one jsonb value of up to a few MB, which would be
 * escaped character by character on the event loop.
 */
async function bound<T = unknown>(tx: EntityManager, sql: string, values: unknown[]): Promise<T[]> {
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

export async function writeMetrics(em: EntityManager, batch: MetricsBatch, retentionHours: number): Promise<{ applicationsCreated: number }> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const counts = batch.counts.map((c) => ({ f: c.feature, a: c.app, e: c.environment, h: iso(c.hour), y: c.yes, n: c.no, p: c.projects }));
  const variants = batch.counts.flatMap((c) => [...(c.variants ?? [])].map(([v, n]) => ({ f: c.feature, a: c.app, e: c.environment, h: iso(c.hour), v, c: n, p: c.projects })));
  const seen = batch.seen.map((s) => ({ f: s.feature, e: s.environment, t: iso(s.at), p: s.projects }));
  const instances = batch.instances.map((i) => ({ a: i.app, e: i.environment, i: i.instanceId, ip: i.clientIp, p: i.projects, by: i.reporter, t: iso(i.at) }));
  const features = [...new Set([...batch.seen.map((s) => s.feature), ...batch.counts.map((c) => c.feature)])];

  return change(em, systemPrincipal, async (tx, emit) => {
    if (features.length > 0) {
      await bound(tx, `select 1 from features where name in (select value from jsonb_array_elements_text(?::jsonb)) order by name for no key update`, [JSON.stringify(features)]);
    }
    if (seen.length > 0) {
      await bound(tx,
        `update features f set last_seen_at = s.t
           from (select r.f, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(f text, e text, t timestamptz, p jsonb)
                   join features x on x.name = r.f and ${TOKEN_COVERS} group by r.f) s
          where f.name = s.f and (f.last_seen_at is null or f.last_seen_at < s.t)`,
        [JSON.stringify(seen)]);
      await bound(tx,
        `update feature_environments fe set last_seen_at = s.t
           from (select r.f, r.e, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(f text, e text, t timestamptz, p jsonb)
                   join features x on x.name = r.f and ${TOKEN_COVERS} group by r.f, r.e) s
          where fe.feature_name = s.f and fe.environment = s.e and (fe.last_seen_at is null or fe.last_seen_at < s.t)`,
        [JSON.stringify(seen)]);
    }
    if (counts.length > 0) {
      await bound(tx,
        `insert into client_metrics_hourly (feature_name, app_name, environment, hour, yes, no)
         select r.f, r.a, r.e, r.h, sum(r.y), sum(r.n) from jsonb_to_recordset(?::jsonb) as r(f text, a text, e text, h timestamptz, y bigint, n bigint, p jsonb)
           join features x on x.name = r.f and ${TOKEN_COVERS}
          group by r.f, r.a, r.e, r.h
          order by r.f, r.a, r.e, r.h
         on conflict (feature_name, app_name, environment, hour)
         do update set yes = client_metrics_hourly.yes + excluded.yes, no = client_metrics_hourly.no + excluded.no`,
        [JSON.stringify(counts)]);
    }
    if (variants.length > 0) {
      await bound(tx,
        `insert into client_metrics_hourly_variants (feature_name, app_name, environment, hour, variant, count)
         select r.f, r.a, r.e, r.h, r.v, sum(r.c) from jsonb_to_recordset(?::jsonb) as r(f text, a text, e text, h timestamptz, v text, c bigint, p jsonb)
           join features x on x.name = r.f and ${TOKEN_COVERS}
          where exists (select 1 from client_metrics_hourly m where m.feature_name = r.f and m.app_name = r.a and m.environment = r.e and m.hour = r.h)
          group by r.f, r.a, r.e, r.h, r.v
          order by r.f, r.a, r.e, r.h, r.v
         on conflict (feature_name, app_name, environment, hour, variant)
         do update set count = client_metrics_hourly_variants.count + excluded.count`,
        [JSON.stringify(variants)]);
    }
    let applicationsCreated = 0;
    if (instances.length > 0) {
      const json = JSON.stringify(instances);
      // An application first seen through its metrics (its SDK did not register, or registered elsewhere first).
      const created: ApplicationRow[] = await bound(tx,
        `insert into client_applications (app_name, created_by, seen_at)
         select distinct on (r.a) r.a, r.by, r.t from jsonb_to_recordset(?::jsonb) as r(a text, by text, t timestamptz)
          order by r.a, r.t desc
         on conflict (app_name) do nothing
         returning ${APPLICATION_COLUMNS}`,
        [json]);
      for (const row of created) emit({ type: 'application-created', data: applicationCreatedData(row) });
      applicationsCreated = created.length;
      await bound(tx,
        `update client_applications ca set seen_at = s.t
           from (select r.a, max(r.t) as t from jsonb_to_recordset(?::jsonb) as r(a text, t timestamptz) group by r.a) s
          where ca.app_name = s.a and (ca.seen_at is null or ca.seen_at < s.t)`,
        [json]);
      await bound(tx,
        `insert into client_instances (app_name, environment, instance_id, client_ip, projects, seen_at)
         select r.a, r.e, r.i, r.ip, r.p, r.t from jsonb_to_recordset(?::jsonb) as r(a text, e text, i text, ip text, p jsonb, t timestamptz)
          where exists (select 1 from client_applications where app_name = r.a)
          order by r.a, r.e, r.i
         on conflict (app_name, environment, instance_id)
         do update set client_ip = excluded.client_ip, projects = excluded.projects, seen_at = greatest(client_instances.seen_at, excluded.seen_at)`,
        [json]);
    }
    await pruneMetrics(tx, retentionHours);
    return { applicationsCreated };
  });
}

/**
 * Deletes hourly counts (and their variant counts) and instances older than the retention. Any number of instances
 * may run it at once: a row another one deleted first is simply gone.
 */
export async function pruneMetrics(tx: EntityManager, retentionHours: number): Promise<void> {
  await tx.execute(`delete from client_metrics_hourly where hour < now() - make_interval(hours => ?)`, [retentionHours]);
  await tx.execute(`delete from client_instances where seen_at < now() - make_interval(hours => ?)`, [retentionHours]);
}
