import type { MetricsReport } from './metrics-input';

/**
 * Metrics reports summed in memory until the next flush (issue 14: intake never waits on the database). Three sets of
 * keys, each what one row of the database is keyed by, so a flush writes every key once whatever the number of
 * reports behind it:
 * - counts per feature, application, environment and hour (yes, no, variants);
 * - the latest report time per feature and environment (the feature environment's `lastSeenAt`);
 * - the first and latest report per application instance (its `created_at` when the flush creates it, its `seen_at`,
 *   address and token projects).
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
  /** The reporting token's projects (`['*']`: all): the flush counts only features of these. */
  projects: string[];
}

export interface SeenRow {
  feature: string;
  environment: string;
  /** Epoch milliseconds of the latest report. */
  at: number;
  /** The reporting token's projects, as for counts. */
  projects: string[];
}

export interface InstanceRow {
  app: string;
  environment: string;
  instanceId: string;
  clientIp: string;
  projects: string[];
  /** Who reported (the token's name): the creator of an application first seen through its metrics. */
  reporter: string;
  /**
   * Epoch milliseconds of the first report held: the instance's (and its application's) creation time when the flush
   * creates them. Not the flush's own time, which is later than `at`: "first seen" would follow "last seen".
   */
  firstAt: number;
  /** Epoch milliseconds of the latest report. */
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

/** The counts of one application, environment, hour and token projects, by feature. */
interface CountGroup {
  app: string;
  environment: string;
  hour: number;
  projects: string[];
  rows: Map<string, CountRow>;
}

/** The key of a token's project list: reports of tokens of other projects are kept apart until the flush decides. */
const projectsKey = (projects: readonly string[]) => projects.join(SEP);

export class MetricsBuffer {
  // Nested by what one report shares (application, environment, hour), then by feature: a report costs one lookup of
  // its group and one lookup per toggle by the toggle's name, without building a key string per toggle.
  private counts = new Map<string, CountGroup>();
  private countKeys = 0;
  private seen = new Map<string, Map<string, SeenRow>>();
  private seenKeys = 0;
  private instances = new Map<string, InstanceRow>();
  /** Toggle reports refused because the buffer was full, since the last `takeDropped()`. */
  private dropped = 0;

  constructor(private readonly maxKeys: number) {}

  /** Keys held (the largest of the three maps). */
  get size(): number {
    return Math.max(this.countKeys, this.seenKeys, this.instances.size);
  }

  private group(app: string, environment: string, hour: number, projects: string[]): CountGroup {
    const key = app + SEP + environment + SEP + hour + SEP + SEP + projectsKey(projects);
    let group = this.counts.get(key);
    if (!group) this.counts.set(key, (group = { app, environment, hour, projects, rows: new Map() }));
    return group;
  }

  private seenIn(environment: string, projects: string[]): Map<string, SeenRow> {
    const key = environment + SEP + SEP + projectsKey(projects);
    let seen = this.seen.get(key);
    if (!seen) this.seen.set(key, (seen = new Map()));
    return seen;
  }

  /**
   * Adds one report. Toggles with no evaluation (yes and no both 0) are left out, as Unleash does; the hour is the
   * bucket's start (a start in the future counts now); an hour older than `oldestHour` is not counted (pruning would
   * remove it) but still marks the feature seen.
   */
  add(report: MetricsReport, source: ReportSource, now: number, oldestHour: number): void {
    const { appName: app } = report;
    const { environment, projects } = source;
    const start = Math.min(report.bucket.start.getTime(), now);
    const hour = Math.floor(start / HOUR_MS) * HOUR_MS;
    const group = hour >= oldestHour ? this.group(app, environment, hour, projects) : undefined;
    const seenHere = this.seenIn(environment, projects);
    const toggles = report.bucket.toggles;
    for (const feature of Object.keys(toggles)) {
      const toggle = toggles[feature];
      const yes = toggle.yes ?? 0;
      const no = toggle.no ?? 0;
      if (feature.length > MAX_FEATURE_NAME || (yes === 0 && no === 0)) continue;
      const seen = seenHere.get(feature);
      if (seen) seen.at = Math.max(seen.at, now);
      else if (this.seenKeys < this.maxKeys) {
        seenHere.set(feature, { feature, environment, at: now, projects });
        this.seenKeys += 1;
      } else this.dropped += 1;
      if (!group) continue;
      let row = group.rows.get(feature);
      if (!row) {
        if (this.countKeys >= this.maxKeys) {
          this.dropped += 1;
          continue;
        }
        row = { feature, app, environment, hour, yes: 0, no: 0, variants: undefined, projects };
        group.rows.set(feature, row);
        this.countKeys += 1;
      }
      row.yes += yes;
      row.no += no;
      const variants = toggle.variants;
      if (variants) {
        for (const variant of Object.keys(variants)) {
          const n = variants[variant];
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
      this.instances.set(key, { app, environment: source.environment, instanceId, clientIp: source.clientIp, projects: source.projects, reporter: source.reporter, firstAt: now, at: now });
    } else {
      this.dropped += 1;
    }
  }

  /** Everything held, for a flush; the buffer starts empty again. */
  take(): MetricsBatch {
    const counts: CountRow[] = [];
    for (const group of this.counts.values()) for (const row of group.rows.values()) counts.push(row);
    const seen: SeenRow[] = [];
    for (const byFeature of this.seen.values()) for (const row of byFeature.values()) seen.push(row);
    const batch = { counts, seen, instances: [...this.instances.values()] };
    this.counts = new Map();
    this.countKeys = 0;
    this.seen = new Map();
    this.seenKeys = 0;
    this.instances = new Map();
    return batch;
  }

  /** Puts back a batch whose write failed, added to what arrived meanwhile (nothing is lost; the cap does not apply). */
  restore(batch: MetricsBatch): void {
    for (const c of batch.counts) {
      const group = this.group(c.app, c.environment, c.hour, c.projects);
      const row = group.rows.get(c.feature);
      if (!row) {
        group.rows.set(c.feature, c);
        this.countKeys += 1;
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
      const seenHere = this.seenIn(s.environment, s.projects);
      const held = seenHere.get(s.feature);
      if (held) held.at = Math.max(held.at, s.at);
      else {
        seenHere.set(s.feature, s);
        this.seenKeys += 1;
      }
    }
    for (const i of batch.instances) {
      const key = i.app + SEP + i.environment + SEP + i.instanceId;
      const held = this.instances.get(key);
      if (held) {
        held.at = Math.max(held.at, i.at);
        held.firstAt = Math.min(held.firstAt, i.firstAt);
      } else this.instances.set(key, i);
    }
  }

  /** Reports refused for a full buffer since the last call. */
  takeDropped(): number {
    const n = this.dropped;
    this.dropped = 0;
    return n;
  }
}
