import type { EntityManager } from '@mikro-orm/postgresql';
import { systemPrincipal } from '../access/principal';
import { change } from '../change';
import { iso } from '../dates';
import type { MetricsBatch } from './metrics-buffer';
import { recordUnknownFlags } from '../unknown-flags/unknown-flag.store';
import { applicationCreatedData } from './application.read-model';
import {
  addHourlyCounts, addHourlyVariantCounts, enterReportedStages, insertReportingApplications, lockReportedFeatures, pruneMetrics, updateLastSeen,
  upsertReportingInstances,
} from './client-metrics.store';

/**
 * One flush of the metrics buffer: a fixed number of set-based statements in one transaction, whatever the number of
 * reports behind the batch (each list travels as one jsonb parameter and is unpacked with `jsonb_to_recordset`; the
 * statements are in client-metrics.store.ts).
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
export async function writeMetrics(em: EntityManager, batch: MetricsBatch, retentionHours: number): Promise<{ applicationsCreated: number }> {
  const counts = batch.counts.map((c) => ({ f: c.feature, a: c.app, e: c.environment, h: iso(c.hour), y: c.yes, n: c.no, p: c.projects }));
  const variants = batch.counts.flatMap((c) => [...(c.variants ?? [])].map(([v, n]) => ({ f: c.feature, a: c.app, e: c.environment, h: iso(c.hour), v, c: n, p: c.projects })));
  const seen = batch.seen.map((s) => ({ f: s.feature, e: s.environment, t: iso(s.at), p: s.projects }));
  const instances = batch.instances.map((i) => ({ a: i.app, e: i.environment, i: i.instanceId, ip: i.clientIp, p: i.projects, by: i.reporter, f: iso(i.firstAt), t: iso(i.at) }));
  const features = [...new Set([...batch.seen.map((s) => s.feature), ...batch.counts.map((c) => c.feature)])];

  return change(em, systemPrincipal, async (tx, emit) => {
    if (features.length > 0) await lockReportedFeatures(tx, JSON.stringify(features));
    const seenJson = JSON.stringify(seen);
    if (seen.length > 0) {
      await updateLastSeen(tx, seenJson);
      await enterReportedStages(tx, seenJson);
    }
    if (counts.length > 0) {
      const json = JSON.stringify(counts);
      await addHourlyCounts(tx, json);
      // Names no flag has, which the statements above leave out (issue 44).
      await recordUnknownFlags(tx, json, seenJson);
    }
    if (variants.length > 0) await addHourlyVariantCounts(tx, JSON.stringify(variants));
    let applicationsCreated = 0;
    if (instances.length > 0) {
      const json = JSON.stringify(instances);
      const created = await insertReportingApplications(tx, json);
      for (const row of created) emit({ type: 'application-created', data: applicationCreatedData(row) });
      applicationsCreated = created.length;
      await upsertReportingInstances(tx, json);
    }
    await pruneMetrics(tx, retentionHours);
    return { applicationsCreated };
  });
}
