import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { checkConstraints, constraintsSchema, normalizeConstraint, type Constraint } from '../features/constraints';
import { description, parse, rowId, sameJson } from '../validation';
import { SEGMENT_SELECT, type SegmentRow, type SegmentStrategy } from './segment.entity';

export type { SegmentStrategy } from './segment.entity';

/** A segment as both doors return it. */
export interface Segment {
  id: number;
  name: string;
  /** Null when none was given. */
  description: string | null;
  /** Null for a global segment, usable by strategies of every project. */
  project: string | null;
  constraints: Constraint[];
  createdBy: string | null;
  createdAt: string;
  /** Distinct features (archived included) whose strategies use the segment. */
  usedInFeatures: number;
  /** Distinct projects whose strategies use the segment. */
  usedInProjects: number;
}

/** Segment ids are PostgreSQL `integer`s: anything else cannot name a segment (404, never a database error). */

const notFound = (id: number | string) => new NotFoundError(`Could not find segment with id ${id}`);
const nameTaken = (name: string) => new NameExistsError(`A segment with the name ${name} already exists`);

const segmentName = z.string().min(1, { abort: true }).max(100).refine((v) => v.trim() !== '', { message: 'must not be blank' });
const body = {
  name: segmentName,
  description: description.nullable().optional(),
  project: z.string().min(1).max(100).nullable().optional(),
  constraints: constraintsSchema.optional(),
};
export const createSchema = z.object(body).strict();
export const updateSchema = z.object(body).strict();
export const validateSchema = z.object({ name: segmentName }).strict();

/** A segment's fields, as a change request's updateSegment change carries them (issue 12). */
export const segmentPayloadSchema = updateSchema;

export type CreateSegmentInput = z.input<typeof createSchema>;
export type UpdateSegmentInput = z.input<typeof updateSchema>;

/** A segment row as both doors (and the state export) return it. */
export const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  name: r.name,
  description: r.description ?? null,
  project: r.project ?? null,
  // jsonb does not keep key order: re-normalizing gives every read the same shape as a fresh write.
  constraints: (r.constraints ?? []).map(normalizeConstraint),
  createdBy: r.created_by ?? null,
  createdAt: new Date(r.created_at).toISOString(),
  usedInFeatures: r.used_in_features,
  usedInProjects: r.used_in_projects,
});

/** What the audit log records of a segment: its stored properties, without the computed usage counts. */
const eventData = (s: Segment) => ({
  id: s.id, name: s.name, description: s.description, project: s.project, constraints: s.constraints, createdBy: s.createdBy, createdAt: s.createdAt,
});

const strategies = (n: number) => `${n} ${n === 1 ? 'strategy' : 'strategies'}`;

export class SegmentService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Every segment, by id, with its usage counts. */
  async list(): Promise<Segment[]> {
    const rows: SegmentRow[] = await this.em.execute(`${SEGMENT_SELECT} order by s.id`);
    return rows.map(toSegment);
  }

  /** One segment; 404 NotFoundError for an unknown or non-numeric id. */
  async get(id: number | string): Promise<Segment> {
    return toSegment(await this.load(this.em, id, false));
  }

  /** The segments of the given ids that exist, in one query (the GraphQL dataloader of strategy segments). */
  async byIds(ids: readonly number[]): Promise<Map<number, Segment>> {
    const wanted = [...new Set(ids.map((id) => rowId(id)).filter((id): id is number => id !== undefined))];
    if (wanted.length === 0) return new Map();
    const rows: SegmentRow[] = await this.em.execute(`${SEGMENT_SELECT} where s.id in (?)`, [wanted]);
    return new Map(rows.map((r) => [r.id, toSegment(r)]));
  }

  /** Creates a segment (CREATE_SEGMENT). Names are unique across all segments; `project` null or absent means global. */
  async create(input: CreateSegmentInput): Promise<Segment> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_SEGMENT');
    return change(this.em, this.principal, async (tx, emit) => {
      const constraints = await checkConstraints(tx, data.constraints ?? [], 'constraints');
      const project = data.project ?? null;
      if (project !== null) await this.requireProject(tx, project);
      await this.refuseTakenName(tx, data.name);
      const rows: SegmentRow[] = await tx.execute(
        `insert into segments (name, description, project, constraints, created_by) values (?, ?, ?, ?::jsonb, ?)
         returning id, name, description, project, constraints, created_by, created_at, 0 as used_in_features, 0 as used_in_projects`,
        [data.name, data.description ?? null, project, JSON.stringify(constraints), this.principal.name],
      );
      const segment = toSegment(rows[0]);
      emit({ type: 'segment-created', project: segment.project, data: eventData(segment) });
      return segment;
    });
  }

  /**
   * Replaces a segment (UPDATE_SEGMENT). `name` is required; each optional property that is sent replaces the
   * stored one (`null` clears the description or makes the segment global) and an absent one is kept. A segment
   * cannot move to a project while strategies of other projects use it (400). No event when nothing changes.
   */
  async update(id: number | string, input: UpdateSegmentInput): Promise<Segment> {
    const data = parse(updateSchema, input);
    await this.access.check('UPDATE_SEGMENT');
    return change(this.em, this.principal, async (tx, emit) => {
      const before = toSegment(await this.load(tx, id, true));
      const after: Segment = {
        ...before,
        name: data.name,
        description: data.description === undefined ? before.description : data.description,
        project: data.project === undefined ? before.project : data.project,
        constraints: data.constraints === undefined ? before.constraints : await checkConstraints(tx, data.constraints, 'constraints'),
      };
      if (after.project !== before.project && after.project !== null) {
        await this.requireProject(tx, after.project);
        await this.refuseUseOutside(tx, before.id, after.project);
      }
      if (after.name !== before.name) await this.refuseTakenName(tx, after.name);
      if (sameJson(eventData(before), eventData(after))) return before;
      await tx.execute(
        `update segments set name = ?, description = ?, project = ?, constraints = ?::jsonb where id = ?`,
        [after.name, after.description, after.project, JSON.stringify(after.constraints), before.id],
      );
      emit({ type: 'segment-updated', project: after.project, data: eventData(after), preData: eventData(before) });
      return after;
    });
  }

  /** Deletes a segment (DELETE_SEGMENT); refused (403 InvalidOperationError) while any strategy uses it. */
  async remove(id: number | string): Promise<void> {
    await this.access.check('DELETE_SEGMENT');
    await change(this.em, this.principal, async (tx, emit) => {
      const segment = toSegment(await this.load(tx, id, true));
      const [{ count }]: Array<{ count: number }> = await tx.execute(
        'select count(*)::int as count from feature_strategy_segments where segment_id = ?', [segment.id]);
      if (count > 0) {
        throw new InvalidOperationError(`The segment ${segment.name} is used by ${strategies(count)}; remove it from ${count === 1 ? 'that strategy' : 'those strategies'} before deleting it.`);
      }
      await tx.execute('delete from segments where id = ?', [segment.id]);
      emit({ type: 'segment-deleted', project: segment.project, preData: eventData(segment) });
    });
  }

  /** Whether a name could be used for a new segment: 400 when invalid, 409 when taken. */
  async validateName(input: unknown): Promise<void> {
    const { name } = parse(validateSchema, input);
    const rows: unknown[] = await this.em.execute('select 1 from segments where name = ? limit 1', [name]);
    if (rows.length > 0) throw nameTaken(name);
  }

  /** The strategies that use a segment, by feature, environment and sort order; 404 for an unknown segment. */
  async strategiesUsing(id: number | string): Promise<SegmentStrategy[]> {
    const segmentId = rowId(id);
    if (segmentId === undefined) throw notFound(id);
    const rows: Array<{ id: string | null; feature_name: string; project: string; environment: string; strategy_name: string }> =
      await this.em.execute(
        `select fs.id, fs.feature_name, fs.project, fs.environment, fs.strategy_name
           from segments s
           left join feature_strategy_segments fss on fss.segment_id = s.id
           left join feature_strategies fs on fs.id = fss.feature_strategy_id
          where s.id = ?
          order by fs.feature_name, fs.environment, fs.sort_order, fs.created_at, fs.id`,
        [segmentId],
      );
    if (rows.length === 0) throw notFound(id);
    return rows.filter((r) => r.id !== null).map((r) => ({
      id: r.id as string, featureName: r.feature_name, projectId: r.project, environment: r.environment, strategyName: r.strategy_name,
    }));
  }

  private async load(em: EntityManager, id: number | string, lock: boolean): Promise<SegmentRow> {
    const segmentId = rowId(id);
    if (segmentId === undefined) throw notFound(id);
    // Locking the row makes a concurrent delete, move or rename of the same segment wait for this change.
    if (lock) await em.execute('select id from segments where id = ? for update', [segmentId]);
    const rows: SegmentRow[] = await em.execute(`${SEGMENT_SELECT} where s.id = ?`, [segmentId]);
    if (rows.length === 0) throw notFound(id);
    return rows[0];
  }

  /**
   * 409 when another segment has the name. The table has no unique index, so the check holds an advisory lock
   * for the rest of the transaction: two concurrent creates or renames to one name cannot both pass it.
   */
  private async refuseTakenName(tx: EntityManager, name: string): Promise<void> {
    await tx.execute(`select pg_advisory_xact_lock(hashtext('segments.name'))`);
    const rows: unknown[] = await tx.execute('select 1 from segments where name = ? limit 1', [name]);
    if (rows.length > 0) throw nameTaken(name);
  }

  /** The project must exist and stay until the segment is written (deleting it waits, then deletes the segment too). */
  private async requireProject(tx: EntityManager, project: string): Promise<void> {
    const rows: unknown[] = await tx.execute('select 1 from projects where id = ? for key share', [project]);
    if (rows.length === 0) throw new NotFoundError(`Project with id ${project} does not exist`);
  }

  /** A project segment may only be used by that project's strategies. */
  private async refuseUseOutside(tx: EntityManager, segmentId: number, project: string): Promise<void> {
    const rows: Array<{ project: string }> = await tx.execute(
      `select distinct fs.project from feature_strategy_segments fss join feature_strategies fs on fs.id = fss.feature_strategy_id
        where fss.segment_id = ? and fs.project <> ? order by fs.project`,
      [segmentId, project],
    );
    if (rows.length > 0) {
      throw ValidationError.single('project', `The segment cannot belong to project ${project}: strategies in other projects use it (${rows.map((r) => r.project).join(', ')}). Remove it from those strategies first, or keep the segment global.`);
    }
  }
}
