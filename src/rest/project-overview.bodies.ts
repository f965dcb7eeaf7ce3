import type { ProjectOverview } from '../domain/projects/feature-overview.read-model';
import type { OverviewFeature } from '../domain/projects/feature-overview.shapes';
import type { ProjectHealthReport } from '../domain/projects/health-report.shapes';

/**
 * The bodies of the project feature list (`GET /api/admin/projects/:p/features`) and of the health report
 * (`GET /api/admin/projects/:p/health-report`), in Unleash v5.8's shapes, from a project's feature overview
 * (src/domain/projects/feature-overview.ts, read by feature-overview.read-model.ts). Each version of an overview is a new object, and what is made from it alone
 * is kept with it (weakly: it goes when the overview does), so the list and the report's features are serialized once
 * per version, never per request.
 */
const lists = new WeakMap<ProjectOverview, Buffer>();
const reportFeatures = new WeakMap<ProjectOverview, Buffer>();

/** Unleash sends `tags` only when the feature has some. */
const withoutEmptyTags = ({ tags, ...f }: OverviewFeature) => (tags.length === 0 ? f : { ...f, tags });

/** `{"version":1,"features":[…]}`: the project feature list's body. */
export function featureListBody(overview: ProjectOverview): Buffer {
  let body = lists.get(overview);
  if (body === undefined) {
    // Unleash v5.8's list item: the report's fields plus `favorite` (there are no favourites here: always false).
    body = Buffer.from(JSON.stringify({
      version: 1,
      features: overview.features.map((f) => {
        const { type, description, name, createdAt, lastSeenAt, stale, impressionData, environments } = f;
        const item = { type, description, favorite: false, name, createdAt, lastSeenAt, stale, impressionData, environments };
        return f.tags.length === 0 ? item : { ...item, tags: f.tags };
      }),
    }));
    lists.set(overview, body);
  }
  return body;
}

/** The `features` array of the health report, serialized (UTF-8). */
function reportFeaturesBytes(overview: ProjectOverview): Buffer {
  let bytes = reportFeatures.get(overview);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(overview.features.map(withoutEmptyTags)));
    reportFeatures.set(overview, bytes);
  }
  return bytes;
}

/**
 * The report as REST answers it, in Unleash's shape (`defaultStrategy` only when configured, `tags` only when the
 * feature has some), with the features' part serialized once per version of the overview.
 */
export function healthReportBody({ report: built, overview }: { report: ProjectHealthReport; overview: ProjectOverview }): Buffer {
  const { id: _id, environments, features: _features, ...report } = built;
  const head = JSON.stringify({
    version: 1,
    ...report,
    environments: environments.map(({ defaultStrategy, ...e }) => (defaultStrategy === null ? e : { ...e, defaultStrategy })),
    favorite: false,
  });
  // The features' bytes are made once per version of the overview and copied in, never re-encoded.
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"features":`), reportFeaturesBytes(overview), Buffer.from('}')]);
}
