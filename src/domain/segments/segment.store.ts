import type { EntityManager } from '@mikro-orm/postgresql';
import { lockClause, type RowLock } from '../change';
import type { Constraint } from '../features/constraint.shapes';
import { NotFoundError } from '../errors';
import { rowId } from '../validation';
import { FeatureStrategySegmentSchema, type FeatureStrategyRow } from '../features/feature-strategy.entity';
import type { TableRow } from '../rows';
import { SegmentSchema } from './segment.entity';
import { SEGMENT_SELECT, type SegmentDbRow } from './segment.read-model';

/** The writes and locks of segments (segment.service.ts says what each rule is for). */

/** The 404 of a segment id that names no segment (ids are PostgreSQL `integer`s: anything else names none). */
export const segmentNotFound = (id: number | string) => new NotFoundError(`Could not find segment with id ${id}`);

/**
 * A segment's row with its usage counts, or 404 for an unknown or non-numeric id. `lock` (inside a change) takes the
 * row lock first: `update` makes a concurrent delete, move or rename of the same segment wait for this change.
 */
export async function loadSegment(em: EntityManager, id: number | string, lock?: RowLock): Promise<SegmentDbRow> {
  const segmentId = rowId(id);
  if (segmentId === undefined) throw segmentNotFound(id);
  if (lock) await em.execute(`select id from segments where id = ?${lockClause(lock)}`, [segmentId]);
  const rows: SegmentDbRow[] = await em.execute(`${SEGMENT_SELECT} where s.id = ?`, [segmentId]);
  if (rows.length === 0) throw segmentNotFound(id);
  return rows[0];
}

/** The fields a segment stores. */
export interface SegmentFields {
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
}

/** Inserts a segment; its row comes back as a read shows it (used by no strategy yet). */
export async function insertSegment(tx: EntityManager, s: SegmentFields, createdBy: string): Promise<SegmentDbRow> {
  const rows: SegmentDbRow[] = await tx.execute(
    `insert into segments (name, description, project, constraints, created_by) values (?, ?, ?, ?::jsonb, ?)
     returning id, name, description, project, constraints, created_by, created_at, 0 as used_in_features, 0 as used_in_projects`,
    [s.name, s.description, s.project, JSON.stringify(s.constraints), createdBy],
  );
  return rows[0];
}

export async function updateSegment(tx: EntityManager, id: number, s: SegmentFields): Promise<void> {
  await tx.nativeUpdate(SegmentSchema, { id }, { name: s.name, description: s.description, project: s.project, constraints: s.constraints });
}

export async function deleteSegment(tx: EntityManager, id: number): Promise<void> {
  await tx.nativeDelete(SegmentSchema, { id });
}

/** How many strategies use the segment. */
export async function countSegmentStrategies(tx: EntityManager, id: number): Promise<number> {
  return tx.count(FeatureStrategySegmentSchema, { segmentId: id });
}

/**
 * Segment names have no unique index: a check of a name holds this advisory lock for the rest of the transaction, so
 * two concurrent creates or renames to one name cannot both pass it.
 */
export async function lockSegmentNames(tx: EntityManager): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('segments.name'))`);
}

/** Whether the project exists, read `for key share`: it stays until the segment is written (deleting it waits). */
export async function holdSegmentProject(tx: EntityManager, project: string): Promise<boolean> {
  const rows: unknown[] = await tx.execute('select 1 from projects where id = ? for key share', [project]);
  return rows.length > 0;
}

/** The projects other than `project` whose strategies use the segment, by name. */
export async function projectsUsingSegmentOutside(tx: EntityManager, segmentId: number, project: string): Promise<string[]> {
  const rows: Array<Pick<TableRow<FeatureStrategyRow>, 'project'>> = await tx.execute(
    `select distinct fs.project from feature_strategy_segments fss join feature_strategies fs on fs.id = fss.feature_strategy_id
      where fss.segment_id = ? and fs.project <> ? order by fs.project`,
    [segmentId, project],
  );
  return rows.map((r) => r.project);
}
