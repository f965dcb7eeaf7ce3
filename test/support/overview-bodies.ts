import type { EntityManager } from '@mikro-orm/postgresql';
import { FeatureOverviewCache as OverviewCache } from '../../src/domain/projects/feature-overview';
import type { ProjectOverview } from '../../src/domain/projects/feature-overview.read-model';
import { HealthReportService as ReportService } from '../../src/domain/projects/health-report.service';
import { featureListBody, healthReportBody } from '../../src/rest/project-overview.bodies';

/**
 * The domain's overview cache and health report service with the REST bodies made from what they return
 * (src/rest/project-overview.bodies.ts, as the routes make them): for tests that compare what REST serves with what a
 * fresh, uncached read gives.
 */
export class FeatureOverviewCache extends OverviewCache {
  override async get(em: EntityManager, project: string): Promise<ProjectOverview & { listBody(): Buffer }> {
    const overview = await super.get(em, project);
    return { ...overview, listBody: () => featureListBody(overview) };
  }
}

export class HealthReportService extends ReportService {
  async healthReportBody(projectId: string): Promise<Buffer> {
    return healthReportBody(await this.healthReportWithOverview(projectId));
  }
}
