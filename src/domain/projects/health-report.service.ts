import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../dates';
import { NotFoundError } from '../errors';
import { FeatureOverviewCache } from './feature-overview';
import type { ProjectOverview } from './feature-overview.read-model';
import type { OverviewEnvironment, OverviewFeature } from './feature-overview.shapes';
import { healthRating, projectReportRows } from './health-report.read-model';
import type { ProjectHealthReport } from './health-report.shapes';
import { isPotentiallyStale } from '../features/staleness';

/**
 * The project health report (spec endpoint 10, design D5): everything is computed live on each request, with
 * a fixed number of SQL queries whatever the number of projects, features, environments or strategies. The
 * features, their ages and the project's archive and time-to-production history come from the project's feature
 * overview (feature-overview.ts), which is reread whenever any of it changes; the counts, health and windows are then
 * computed from it at the request's time, and the project row and its audit-log activity are read on each request.
 *
 * Definitions (reference §2 endpoint 10), over the project's non-archived features:
 * - staleCount: stale features; activeCount: non-stale features;
 * - potentiallyStaleCount: non-stale features whose type has a lifetime and that are at least that many days
 *   (× 24 h) old: release/experiment 40, operational 7, kill-switch and permission never;
 * - health = round(100 − 100·stale/total − 100·potentiallyStale/total), 100 without features. Unleash stores
 *   it and refreshes it hourly; here it is computed from the same counts as above on each request.
 * - stats: current window = the last 30 days (t ≥ now − 30 d), past window = now − 60 d ≤ t < now − 30 d;
 *   created* counts non-archived features by created_at, archived* archived ones by archived_at,
 *   projectActivity* events of the project by created_at; avgTimeToProd is over every release feature of the
 *   project (archived ones included, not limited to 30 days): whole days from creation to its first
 *   feature-environment-enabled event in a production-type environment after creation, averaged, 1 decimal.
 * - members and projectMembersAddedCurrentWindow are 0: there are no project roles yet.
 * Environments switched off (D6) are left out of both environment lists, as from the project's own listing.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export class HealthReportService {
  constructor(private readonly em: EntityManager, private readonly overviews: FeatureOverviewCache = new FeatureOverviewCache()) {}

  /** One project's report; 404 NotFoundError "No project found" for an unknown id. Needs no permission. */
  async healthReport(projectId: string): Promise<ProjectHealthReport> {
    const [report] = await this.healthReports([projectId]);
    if (!report) throw new NotFoundError('No project found');
    return report;
  }

  /**
   * One project's report with the overview it was computed from, for REST (src/rest/project-overview.bodies.ts), which
   * serializes the features' part once per version of the overview; 404 NotFoundError "No project found".
   */
  async healthReportWithOverview(projectId: string): Promise<{ report: ProjectHealthReport; overview: ProjectOverview }> {
    const [built] = await this.build([projectId], new Date());
    if (!built) throw new NotFoundError('No project found');
    return built;
  }

  /**
   * Reports of several projects (the GraphQL dataloader's batch), in the order asked; unknown ids are left out.
   * Two queries when the projects' overviews are current (the overview's counters, and the project rows with their
   * environments and audit-log activity), whatever the number of projects and features.
   */
  async healthReports(projectIds: readonly string[], now = new Date()): Promise<ProjectHealthReport[]> {
    return (await this.build(projectIds, now)).map((b) => b.report);
  }

  private async build(projectIds: readonly string[], now: Date): Promise<Array<{ report: ProjectHealthReport; overview: ProjectOverview }>> {
    const ids = [...new Set(projectIds)];
    if (ids.length === 0) return [];
    const currentMs = now.getTime() - 30 * DAY_MS;
    const pastMs = now.getTime() - 60 * DAY_MS;
    const current = iso(currentMs);
    const past = iso(pastMs);

    // The features, their ages and the project's history come from the overview (kept while nothing it shows
    // changes); the project row, its environments and the audit log's activity are read on each request. The two reads
    // are independent and run together (on the embedded single-connection database the pool queues them).
    const [overviews, projects] = await Promise.all([
      this.overviews.getMany(this.em, ids),
      projectReportRows(this.em, ids, current, past),
    ]);
    const byId = new Map(projects.map((p) => [p.id, p]));

    const reports: Array<{ report: ProjectHealthReport; overview: ProjectOverview }> = [];
    for (const id of ids) {
      const p = byId.get(id);
      const overview = overviews.get(id);
      // A project deleted between the two reads is left out, as an unknown one.
      if (!p || !overview) continue;
      let stale = 0;
      let potentiallyStale = 0;
      let createdCurrent = 0;
      let createdPast = 0;
      overview.features.forEach((f, i) => {
        const { createdMs, lifetimeDays } = overview.ages[i];
        if (createdMs >= currentMs) createdCurrent++;
        else if (createdMs >= pastMs) createdPast++;
        if (f.stale) { stale++; return; }
        if (isPotentiallyStale(false, createdMs, lifetimeDays, now.getTime())) potentiallyStale++;
      });
      let archivedCurrent = 0;
      let archivedPast = 0;
      for (const at of overview.history.archivedMs) {
        if (at >= currentMs) archivedCurrent++;
        else if (at >= pastMs) archivedPast++;
      }
      const active = overview.features.length - stale;
      reports.push({ overview, report: {
        id,
        name: p.name,
        description: p.description,
        defaultStickiness: p.default_stickiness,
        mode: p.mode,
        featureLimit: p.feature_limit,
        members: 0,
        health: healthRating(active, stale, potentiallyStale),
        environments: p.environments.map((l) => ({
          environment: l.environment,
          changeRequestsEnabled: l.changeRequestsEnabled,
          defaultStrategy: l.defaultStrategy ?? null,
        })),
        features: overview.features,
        updatedAt: isoOrNull(p.updated_at),
        createdAt: iso(p.created_at),
        stats: {
          avgTimeToProdCurrentWindow: overview.history.avgDaysToProduction ?? 0,
          createdCurrentWindow: createdCurrent,
          createdPastWindow: createdPast,
          archivedCurrentWindow: archivedCurrent,
          archivedPastWindow: archivedPast,
          projectActivityCurrentWindow: p.activity_current,
          projectActivityPastWindow: p.activity_past,
          projectMembersAddedCurrentWindow: 0,
        },
        featureNaming: { pattern: p.feature_naming_pattern, example: p.feature_naming_example, description: p.feature_naming_description },
        potentiallyStaleCount: potentiallyStale,
        activeCount: active,
        staleCount: stale,
      } });
    }
    return reports;
  }
}
