import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { checkConstraints, constraintsSchema } from '../features/constraints';
import { description, parse, rowId, sameJson } from '../validation';
import { listSegments, segmentNameTaken, segmentsByIds, strategiesUsingSegment, toSegment } from './segment.read-model';
import type { Segment, SegmentStrategy } from './segment.shapes';
import {
  countSegmentStrategies, deleteSegment, holdSegmentProject, insertSegment, loadSegment, lockSegmentNames,
  projectsUsingSegmentOutside, segmentNotFound, updateSegment,
} from './segment.store';

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

/** What the audit log records of a segment: its stored properties, without the computed usage counts. */
const eventData = (s: Segment) => ({
  id: s.id, name: s.name, description: s.description, project: s.project, constraints: s.constraints, createdBy: s.createdBy, createdAt: s.createdAt,
});

const strategies = (n: number) => `${n} ${n === 1 ? 'strategy' : 'strategies'}`;

export class SegmentService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Every segment, by id, with its usage counts. */
  async list(): Promise<Segment[]> {
    return listSegments(this.em);
  }

  /** One segment; 404 NotFoundError for an unknown or non-numeric id. */
  async get(id: number | string): Promise<Segment> {
    return toSegment(await loadSegment(this.em, id));
  }

  /** The segments of the given ids that exist, in one query (the GraphQL dataloader of strategy segments). */
  async byIds(ids: readonly number[]): Promise<Map<number, Segment>> {
    const wanted = [...new Set(ids.map((id) => rowId(id)).filter((id): id is number => id !== undefined))];
    if (wanted.length === 0) return new Map();
    return segmentsByIds(this.em, wanted);
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
      const segment = toSegment(await insertSegment(tx, { name: data.name, description: data.description ?? null, project, constraints }, this.principal.name));
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
      const before = toSegment(await loadSegment(tx, id, 'update'));
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
      await updateSegment(tx, before.id, after);
      emit({ type: 'segment-updated', project: after.project, data: eventData(after), preData: eventData(before) });
      return after;
    });
  }

  /** Deletes a segment (DELETE_SEGMENT); refused (403 InvalidOperationError) while any strategy uses it. */
  async remove(id: number | string): Promise<void> {
    await this.access.check('DELETE_SEGMENT');
    await change(this.em, this.principal, async (tx, emit) => {
      const segment = toSegment(await loadSegment(tx, id, 'update'));
      const count = await countSegmentStrategies(tx, segment.id);
      if (count > 0) {
        throw new InvalidOperationError(`The segment ${segment.name} is used by ${strategies(count)}; remove it from ${count === 1 ? 'that strategy' : 'those strategies'} before deleting it.`);
      }
      await deleteSegment(tx, segment.id);
      emit({ type: 'segment-deleted', project: segment.project, preData: eventData(segment) });
    });
  }

  /** Whether a name could be used for a new segment: 400 when invalid, 409 when taken. */
  async validateName(input: unknown): Promise<void> {
    const { name } = parse(validateSchema, input);
    if (await segmentNameTaken(this.em, name)) throw nameTaken(name);
  }

  /** The strategies that use a segment, by feature, environment and sort order; 404 for an unknown segment. */
  async strategiesUsing(id: number | string): Promise<SegmentStrategy[]> {
    const segmentId = rowId(id);
    if (segmentId === undefined) throw segmentNotFound(id);
    const used = await strategiesUsingSegment(this.em, segmentId);
    if (used === undefined) throw segmentNotFound(id);
    return used;
  }

  /**
   * 409 when another segment has the name. The table has no unique index, so the check holds an advisory lock
   * for the rest of the transaction: two concurrent creates or renames to one name cannot both pass it.
   */
  private async refuseTakenName(tx: EntityManager, name: string): Promise<void> {
    await lockSegmentNames(tx);
    if (await segmentNameTaken(tx, name)) throw nameTaken(name);
  }

  /** The project must exist and stay until the segment is written (deleting it waits, then deletes the segment too). */
  private async requireProject(tx: EntityManager, project: string): Promise<void> {
    if (!(await holdSegmentProject(tx, project))) throw new NotFoundError(`Project with id ${project} does not exist`);
  }

  /** A project segment may only be used by that project's strategies. */
  private async refuseUseOutside(tx: EntityManager, segmentId: number, project: string): Promise<void> {
    const others = await projectsUsingSegmentOutside(tx, segmentId, project);
    if (others.length > 0) {
      throw ValidationError.single('project', `The segment cannot belong to project ${project}: strategies in other projects use it (${others.join(', ')}). Remove it from those strategies first, or keep the segment global.`);
    }
  }
}
