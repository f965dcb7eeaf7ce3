import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { EVENT_COLUMNS, toAuditEvent, type EventDbRow } from '../events/event.store';
import type { AuditEvent } from '../events/event.shapes';
import type { TableRow } from '../rows';
import type { ClientMetricsHourlyRow } from './client-metrics.entity';
import { periodsOf, type ExposureWindow } from './exposure-window';

/**
 * What a flag's exposure chart reads (issue 44): its hourly counts summed per environment into the window's periods,
 * the applications that reported it, and its own changes in the window. Each is one statement for any number of
 * flags, so a list of flags with a sparkline each costs the same number of statements as one flag.
 */

/** The changes drawn on the time axis: switches, strategies and variants, the things that change what SDKs answer. */
export const EXPOSURE_CHANGE_TYPES = [
  'feature-environment-enabled', 'feature-environment-disabled',
  'feature-strategy-add', 'feature-strategy-update', 'feature-strategy-remove', 'strategy-order-changed',
  'feature-variants-updated', 'feature-environment-variants-updated',
] as const;
/** Most changes of one flag in one window: newest kept (a flag changed more often than this has no readable chart anyway). */
export const MAX_EXPOSURE_CHANGES = 500;
/** Most applications listed per flag, as Unleash's raw metrics. */
const MAX_APPLICATIONS = 100;

export interface VariantCount {
  name: string;
  count: number;
}

/** One period of one environment. */
export interface ExposureBucket {
  timestamp: string;
  environment: string;
  yes: number;
  no: number;
  /** Variants handed out, by name. */
  variants: VariantCount[];
}

export interface ExposureCounts {
  /** Start of each period, oldest first. */
  periods: string[];
  /** Environments that reported the flag in the window, by name. */
  environments: string[];
  /** A bucket per environment (in `environments` order) per period (oldest first); periods without reports count 0. */
  buckets: ExposureBucket[];
  /** yes + no of each period, over every environment. */
  totals: number[];
}

/** SQL conditions of the window's filters on a metrics table aliased `m`, and their values. */
function filters(w: ExposureWindow): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  if (w.appName !== null) { parts.push('and m.app_name = ?'); values.push(w.appName); }
  if (w.environment !== null) { parts.push('and m.environment = ?'); values.push(w.environment); }
  return { sql: parts.join(' '), values };
}

type CountRow = Pick<TableRow<ClientMetricsHourlyRow>, 'feature_name' | 'environment' | 'hour' | 'yes' | 'no'> & { variants: Record<string, string | number> | null };

/** The flags' counts in the window, summed over the applications (or only the window's), per environment and period. */
export async function exposureCounts(em: EntityManager, names: readonly string[], w: ExposureWindow): Promise<Map<string, ExposureCounts>> {
  const f = filters(w);
  const range = [[...names], iso(w.from), iso(w.to)];
  // SQL: two grouped reads joined on their keys, so the variant counts cost one pass, not one look-up per hour.
  const rows: CountRow[] = await em.execute(
    `with m as (
       select m.feature_name, m.environment, m.hour, sum(m.yes) as yes, sum(m.no) as no from client_metrics_hourly m
        where m.feature_name in (?) and m.hour >= ? and m.hour < ? ${f.sql}
        group by m.feature_name, m.environment, m.hour),
     v as (
       select x.feature_name, x.environment, x.hour, jsonb_object_agg(x.variant, x.count) as variants
         from (select m.feature_name, m.environment, m.hour, m.variant, sum(m.count) as count from client_metrics_hourly_variants m
                where m.feature_name in (?) and m.hour >= ? and m.hour < ? ${f.sql}
                group by m.feature_name, m.environment, m.hour, m.variant) x
        group by x.feature_name, x.environment, x.hour)
     select m.feature_name, m.environment, m.hour, m.yes, m.no, v.variants from m left join v using (feature_name, environment, hour)`,
    [...range, ...f.values, ...range, ...f.values]);
  const byFeature = new Map<string, CountRow[]>();
  for (const r of rows) {
    const list = byFeature.get(r.feature_name);
    if (list) list.push(r);
    else byFeature.set(r.feature_name, [r]);
  }
  const periods = periodsOf(w);
  const out = new Map<string, ExposureCounts>();
  for (const name of names) out.set(name, assemble(byFeature.get(name) ?? [], periods.starts, periods.indexOf));
  return out;
}

interface Sum { yes: number; no: number; variants: Map<string, number> }

function assemble(rows: CountRow[], starts: number[], indexOf: Map<number, number>): ExposureCounts {
  const environments = [...new Set(rows.map((r) => r.environment))].sort();
  const sums = new Map(environments.map((e) => [e, starts.map((): Sum => ({ yes: 0, no: 0, variants: new Map() }))]));
  const totals = starts.map(() => 0);
  for (const r of rows) {
    const i = indexOf.get(new Date(r.hour).getTime());
    if (i === undefined) continue;
    const s = sums.get(r.environment)![i];
    const [yes, no] = [Number(r.yes), Number(r.no)];
    s.yes += yes;
    s.no += no;
    totals[i] += yes + no;
    for (const [variant, count] of Object.entries(r.variants ?? {})) s.variants.set(variant, (s.variants.get(variant) ?? 0) + Number(count));
  }
  const timestamps = starts.map(iso);
  const buckets: ExposureBucket[] = [];
  for (const environment of environments) {
    sums.get(environment)!.forEach((s, i) => buckets.push({
      timestamp: timestamps[i], environment, yes: s.yes, no: s.no,
      variants: [...s.variants].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, count]) => ({ name, count })),
    }));
  }
  return { periods: timestamps, environments, buckets, totals };
}

/** The applications that reported each flag in the window (in its environment, when it has one), by name. */
export async function exposureApplications(em: EntityManager, names: readonly string[], w: ExposureWindow): Promise<Map<string, string[]>> {
  const env = w.environment !== null ? 'and m.environment = ?' : '';
  const rows: Array<Pick<TableRow<ClientMetricsHourlyRow>, 'feature_name' | 'app_name'>> = await em.execute(
    `select m.feature_name, m.app_name from client_metrics_hourly m where m.feature_name in (?) and m.hour >= ? and m.hour < ? ${env}
      group by m.feature_name, m.app_name order by m.feature_name, m.app_name`,
    [[...names], iso(w.from), iso(w.to), ...(w.environment !== null ? [w.environment] : [])]);
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.feature_name) ?? [];
    if (list.length < MAX_APPLICATIONS) list.push(r.app_name);
    out.set(r.feature_name, list);
  }
  return out;
}

/**
 * Each flag's changes in the window (of EXPOSURE_CHANGE_TYPES; in the window's environment or in none, when it has
 * one), oldest first: at most MAX_EXPOSURE_CHANGES, the newest.
 */
export async function exposureChanges(em: EntityManager, names: readonly string[], w: ExposureWindow): Promise<Map<string, AuditEvent[]>> {
  const env = w.environment !== null ? 'and (environment = ? or environment is null)' : '';
  // SQL: a lateral per flag walks its (feature_name, id desc) index and stops at the limit.
  const rows: EventDbRow[] = await em.getConnection().execute(
    `select e.* from unnest(array[?]::text[]) as f(name)
       cross join lateral (select ${EVENT_COLUMNS} from events
                            where feature_name = f.name and type in (?) and created_at >= ? and created_at < ? ${env}
                            order by id desc limit ?) e`,
    [[...new Set(names)], [...EXPOSURE_CHANGE_TYPES], iso(w.from), iso(w.to), ...(w.environment !== null ? [w.environment] : []), MAX_EXPOSURE_CHANGES]);
  const out = new Map<string, AuditEvent[]>();
  for (const r of rows) {
    const e = toAuditEvent(r);
    const list = out.get(e.featureName as string) ?? [];
    list.push(e);
    out.set(e.featureName as string, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.id - b.id);
  return out;
}
