import type { MetricsReport } from './metrics-input';

/**
 * Metrics reports summed in memory until the next flush (issue 14: intake never waits on the database). Three maps,
 * each keyed by what one row of the database is keyed by, so a flush writes every key once whatever the number of
 * reports behind it:
 * - counts per feature, application, environment and hour (yes, no, variants);
 * - the latest report time per feature and environment (the feature environment's `lastSeenAt`);
 * - the latest report per application instance (its `seen_at`, address and token projects).
 * The number of keys is bounded: once `maxKeys` are held, reports for new keys are counted as dropped (the caller logs
 * them) while counts for keys already held keep adding up; reaching `flushAt` keys asks for an early flush.
 */

/** Longest feature name there can be (src/domain/features/feature.service.ts): longer toggle names are not features. */
const MAX_FEATURE_NAME = 100;
const HOUR_MS = 3_600_000;

export interface CountRow {
  feature: string;
  app: string;
  environment: string;
  /** Start of the hour, epoch milliseconds (UTC). */
  hour: number;
  yes: number;
  no: number;
  variants: Map<string, number> | undefined;
}

export interface SeenRow {
  feature: string;
  environment: string;
  /** Epoch milliseconds of the latest report. */
  at: number;
}

export interface InstanceRow {
  app: string;
  environment: string;
  instanceId: string;
  clientIp: string;
  projects: string[];
  /** Who reported (the token's name): the creator of an application first seen through its metrics. */
  reporter: string;
  at: number;
}

/** What one flush writes. */
export interface MetricsBatch {
  counts: CountRow[];
  seen: SeenRow[];
  instances: InstanceRow[];
}

export const isEmptyBatch = (b: MetricsBatch) => b.counts.length === 0 && b.seen.length === 0 && b.instances.length === 0;

const SEP = '\u0000';

export interface ReportSource {
  environment: string;
  clientIp: string;
  projects: string[];
  reporter: string;
}

export class MetricsBuffer {
  private counts = new Map<string, CountRow>();
  private seen = new Map<string, SeenRow>();
  private instances = new Map<string, InstanceRow>();
  /** Toggle reports refused because the buffer was full, since the last `takeDropped()`. */
  private dropped = 0;

  constructor(private readonly maxKeys: number) {}

  /** Keys held (the largest of the three maps). */
  get size(): number {
    return Math.max(this.counts.size, this.seen.size, this.instances.size);
  }

  /**
   * Adds one report. Toggles with no evaluation (yes and no both 0) are left out, as Unleash does; the hour is the
   * bucket's start (a start in the future counts now); an hour older than `oldestHour` is not counted (pruning would
   * remove it) but still marks the feature seen.
   */
  add(report: MetricsReport, source: ReportSource, now: number, oldestHour: number): void {
    const { appName: app } = report;
    const { environment } = source;
    const start = Math.min(report.bucket.start.getTime(), now);
    const hour = Math.floor(start / HOUR_MS) * HOUR_MS;
    const counted = hour >= oldestHour;
    for (const [feature, toggle] of Object.entries(report.bucket.toggles)) {
      if (feature.length > MAX_FEATURE_NAME || (toggle.yes === 0 && toggle.no === 0)) continue;
      const seenKey = feature + SEP + environment;
      const seen = this.seen.get(seenKey);
      if (seen) seen.at = Math.max(seen.at, now);
      else if (this.seen.size < this.maxKeys) this.seen.set(seenKey, { feature, environment, at: now });
      else this.dropped += 1;
      if (!counted) continue;
      const key = seenKey + SEP + app + SEP + hour;
      let row = this.counts.get(key);
      if (!row) {
        if (this.counts.size >= this.maxKeys) {
          this.dropped += 1;
          continue;
        }
        row = { feature, app, environment, hour, yes: 0, no: 0, variants: undefined };
        this.counts.set(key, row);
      }
      row.yes += toggle.yes;
      row.no += toggle.no;
      if (toggle.variants) {
        for (const [variant, n] of Object.entries(toggle.variants)) {
          if (n === 0) continue;
          row.variants ??= new Map();
          row.variants.set(variant, (row.variants.get(variant) ?? 0) + n);
        }
      }
    }
    this.touchInstance(app, report.instanceId, source, now);
  }

  private touchInstance(app: string, instanceId: string, source: ReportSource, now: number): void {
    const key = app + SEP + source.environment + SEP + instanceId;
    const held = this.instances.get(key);
    if (held) {
      held.at = Math.max(held.at, now);
      held.clientIp = source.clientIp;
      held.projects = source.projects;
    } else if (this.instances.size < this.maxKeys) {
      this.instances.set(key, { app, environment: source.environment, instanceId, clientIp: source.clientIp, projects: source.projects, reporter: source.reporter, at: now });
    } else {
      this.dropped += 1;
    }
  }

  /** Everything held, for a flush; the buffer starts empty again. */
  take(): MetricsBatch {
    const batch = { counts: [...this.counts.values()], seen: [...this.seen.values()], instances: [...this.instances.values()] };
    this.counts = new Map();
    this.seen = new Map();
    this.instances = new Map();
    return batch;
  }

  /** Puts back a batch whose write failed, added to what arrived meanwhile (nothing is lost; the cap does not apply). */
  restore(batch: MetricsBatch): void {
    for (const c of batch.counts) {
      const key = c.feature + SEP + c.environment + SEP + c.app + SEP + c.hour;
      const row = this.counts.get(key);
      if (!row) {
        this.counts.set(key, c);
        continue;
      }
      row.yes += c.yes;
      row.no += c.no;
      if (c.variants) {
        row.variants ??= new Map();
        for (const [variant, n] of c.variants) row.variants.set(variant, (row.variants.get(variant) ?? 0) + n);
      }
    }
    for (const s of batch.seen) {
      const key = s.feature + SEP + s.environment;
      const held = this.seen.get(key);
      if (held) held.at = Math.max(held.at, s.at);
      else this.seen.set(key, s);
    }
    for (const i of batch.instances) {
      const key = i.app + SEP + i.environment + SEP + i.instanceId;
      const held = this.instances.get(key);
      if (held) held.at = Math.max(held.at, i.at);
      else this.instances.set(key, i);
    }
  }

  /** Reports refused for a full buffer since the last call. */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }
}
