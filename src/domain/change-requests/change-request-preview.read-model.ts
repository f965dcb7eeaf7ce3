import type { EntityManager } from '@mikro-orm/postgresql';
import { FeatureStrategySchema } from '../features/feature-strategy.entity';
import { PlaygroundReadModel } from '../playground/playground.read-model';
import type { ProjectEnvironmentRow, ProjectRow } from '../projects/project.entity';
import type { TableRow } from '../rows';
import { SegmentSchema } from '../segments/segment.entity';
import { StrategyDefinitionSchema } from '../strategies/strategy-definition.entity';
import type { PreviewChange, PreviewWorld } from './change-request-preview';

/**
 * The environment's evaluation input (all projects, as the playground's default) and what the rules of the changes
 * need (change-request-preview.ts applies them): strategy definitions, segment projects and their other uses, the
 * project environment's default strategy, and the creation order of the changed features' strategies.
 */
export async function loadPreviewWorld(em: EntityManager, project: string, environment: string, changes: readonly PreviewChange[]): Promise<PreviewWorld> {
  const named = [...new Set(changes.flatMap((c) => ('feature' in c ? [c.feature] : [])))];
  const deletedSegments = [...new Set(changes.flatMap((c) => (c.action === 'deleteSegment' ? [c.payload.id] : [])))];
  const [snapshot, definitions, segmentRows, elsewhere, defaults, ranks] = await Promise.all([
    new PlaygroundReadModel(em).load([environment], '*'),
    em.find(StrategyDefinitionSchema, {}, { fields: ['name'], disableIdentityMap: true }),
    // A segment's project changes by SQL: read afresh, never from the identity map.
    em.find(SegmentSchema, {}, { fields: ['id', 'project'], disableIdentityMap: true }),
    (deletedSegments.length === 0 ? Promise.resolve([]) : em.execute(
      `select fss.segment_id, count(*)::int as count from feature_strategy_segments fss
         join feature_strategies fs on fs.id = fss.feature_strategy_id join features f on f.name = fs.feature_name
        where fss.segment_id in (?) and (fs.environment <> ? or f.archived_at is not null) group by fss.segment_id`,
      [deletedSegments, environment])) as Promise<Array<{ segment_id: number; count: number }>>,
    em.execute(
      `select pe.default_strategy, p.default_stickiness from project_environments pe join projects p on p.id = pe.project_id
        where pe.project_id = ? and pe.environment_name = ?`, [project, environment]) as Promise<Array<Pick<TableRow<ProjectEnvironmentRow>, 'default_strategy'> & Pick<TableRow<ProjectRow>, 'default_stickiness'>>>,
    named.length === 0 ? Promise.resolve([]) : em.find(FeatureStrategySchema, { featureName: { $in: named }, environment },
      { fields: ['id'], orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], disableIdentityMap: true }),
  ]);
  return {
    project,
    environment,
    features: snapshot.features.get(environment) ?? [],
    segments: snapshot.segments,
    segmentProjects: new Map(segmentRows.map((r) => [r.id, r.project ?? null])),
    segmentUseElsewhere: new Map(elsewhere.map((r) => [r.segment_id, r.count])),
    strategyNames: new Set(definitions.map((d) => d.name)),
    defaultStrategy: defaults[0]?.default_strategy ?? null,
    defaultStickiness: defaults[0]?.default_stickiness ?? 'default',
    creationRank: new Map(ranks.map((r, i) => [r.id, i])),
  };
}
