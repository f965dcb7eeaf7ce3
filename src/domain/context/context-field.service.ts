import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change, lockedFindOne } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { ContextFieldSchema, type ContextFieldRow, type LegalValue } from './context-field.entity';

export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: string;
  usedInFeatures: number;
  usedInProjects: number;
}

export const legalValue = z.object({ value: z.string().min(1).max(100), description: description.optional() }).strict();
const legalValues = z.array(legalValue).max(1000).superRefine((values, ctx) => {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v.value)) ctx.addIssue({ code: 'custom', path: [i, 'value'], message: `must be unique; "${v.value}" appears more than once` });
    seen.add(v.value);
  });
});
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000);
const fields = {
  description: description.nullable().optional(),
  legalValues: legalValues.optional(),
  stickiness: z.boolean().optional(),
  sortOrder: sortOrder.optional(),
};
const createSchema = z.object({ name: urlFriendlyName(1, 100), ...fields }).strict();
/** A new context field as created directly; an import creates the fields it brings with the same rules (issue 13). */
export const contextFieldCreateSchema = createSchema;
export const updateSchema = z.object({ name: z.string().optional(), ...fields }).strict();
export const validateSchema = z.object({ name: urlFriendlyName(1, 100) }).strict();

export type CreateContextFieldInput = z.input<typeof createSchema>;
export type UpdateContextFieldInput = z.input<typeof updateSchema>;

const toContextField = (r: ContextFieldRow, usage?: { features: number; projects: number }): ContextField => ({
  name: r.name,
  description: r.description ?? null,
  stickiness: r.stickiness,
  sortOrder: r.sortOrder,
  legalValues: r.legalValues ?? [],
  createdAt: new Date(r.createdAt).toISOString(),
  usedInFeatures: usage?.features ?? 0,
  usedInProjects: usage?.projects ?? 0,
});

/** What the audit log records of a field: its stored properties, without the computed usage counts. */
const eventData = (f: ContextField) => ({ name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sortOrder, legalValues: f.legalValues });

export class ContextFieldService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Spec endpoint 14: every field, ordered by name, with the features and projects whose strategy constraints use it. */
  async list(): Promise<ContextField[]> {
    const [rows, usage] = await Promise.all([
      this.em.find(ContextFieldSchema, {}, { orderBy: { name: 'asc' } }),
      this.usage(),
    ]);
    return rows.map((r) => toContextField(r, usage.get(r.name)));
  }

  async get(name: string): Promise<ContextField> {
    const row = await this.load(this.em, name);
    return toContextField(row, (await this.usage(name)).get(name));
  }

  async create(input: CreateContextFieldInput): Promise<ContextField> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_CONTEXT_FIELD');
    return change(this.em, this.principal, async (tx, emit) => {
      if (await tx.findOne(ContextFieldSchema, { name: data.name })) throw new NameExistsError(`A context field with the name ${data.name} already exists`);
      const row = tx.create(ContextFieldSchema, {
        name: data.name, description: data.description ?? null, stickiness: data.stickiness ?? false,
        sortOrder: data.sortOrder ?? 10, legalValues: data.legalValues ?? [],
      });
      await tx.flush(); // fills createdAt
      const field = toContextField(row);
      emit({ type: 'context-field-created', data: eventData(field) });
      return field;
    });
  }

  /** Partial update: absent properties are untouched; an update that changes nothing writes no event. */
  async update(name: string, input: UpdateContextFieldInput): Promise<ContextField> {
    const data = parse(updateSchema, input);
    if (data.name !== undefined && data.name !== name) throw ValidationError.single('name', 'The `name` property must equal the context field name in the path; a context field cannot be renamed.');
    await this.access.check('UPDATE_CONTEXT_FIELD');
    return this.modify(name, (row) => {
      if (data.description !== undefined) row.description = data.description;
      if (data.stickiness !== undefined) row.stickiness = data.stickiness;
      if (data.sortOrder !== undefined) row.sortOrder = data.sortOrder;
      if (data.legalValues !== undefined) row.legalValues = data.legalValues;
    });
  }

  /** Adds a legal value, or replaces the description of an existing one. */
  async addLegalValue(name: string, input: unknown): Promise<ContextField> {
    const value = parse(legalValue, input);
    await this.access.check('UPDATE_CONTEXT_FIELD');
    return this.modify(name, (row) => {
      const rest = (row.legalValues ?? []).filter((v) => v.value !== value.value);
      row.legalValues = [...rest, value];
    });
  }

  async removeLegalValue(name: string, value: string): Promise<ContextField> {
    await this.access.check('UPDATE_CONTEXT_FIELD');
    return this.modify(name, (row) => {
      const rest = (row.legalValues ?? []).filter((v) => v.value !== value);
      if (rest.length === (row.legalValues ?? []).length) throw new NotFoundError(`The context field ${name} has no legal value "${value}"`);
      row.legalValues = rest;
    });
  }

  async remove(name: string): Promise<void> {
    await this.access.check('DELETE_CONTEXT_FIELD');
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, name, true);
      emit({ type: 'context-field-deleted', preData: eventData(toContextField(row)) });
      tx.remove(row);
    });
  }

  /** Whether a name could be used for a new field: 400 when invalid, 409 when taken. */
  async validateName(input: unknown): Promise<void> {
    const { name } = parse(validateSchema, input);
    if (await this.em.findOne(ContextFieldSchema, { name })) throw new NameExistsError(`A context field with the name ${name} already exists`);
  }

  /** Applies a change to the field; the answer carries its usage counts as a read shows them (read after the commit). */
  private async modify(name: string, apply: (row: ContextFieldRow) => void): Promise<ContextField> {
    const field = await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, name, true);
      const before = toContextField(row);
      apply(row);
      const after = toContextField(row);
      if (!sameJson(eventData(before), eventData(after))) emit({ type: 'context-field-updated', data: eventData(after), preData: eventData(before) });
      return after;
    });
    const usage = (await this.usage(name)).get(name);
    return { ...field, usedInFeatures: usage?.features ?? 0, usedInProjects: usage?.projects ?? 0 };
  }

  /** Distinct features (archived included) and projects whose strategy constraints reference each field. */
  private async usage(only?: string): Promise<Map<string, { features: number; projects: number }>> {
    // context_field_usage is kept by a trigger on feature_strategies (migration 0003).
    const rows: Array<{ name: string; features: number; projects: number }> = await this.em.execute(
      `select context_name as name, count(*)::int as features, count(distinct project)::int as projects
         from context_field_usage ${only ? 'where context_name = ?' : ''} group by context_name`,
      only ? [only] : [],
    );
    return new Map(rows.map((r) => [r.name, { features: r.features, projects: r.projects }]));
  }

  /** The field, or 404; `lock` (inside a change) reads it `for update`, so concurrent changes of it take turns. */
  private async load(em: EntityManager, name: string, lock = false): Promise<ContextFieldRow> {
    const row = lock ? await lockedFindOne(em, ContextFieldSchema, { name }) : await em.findOne(ContextFieldSchema, { name });
    if (!row) throw new NotFoundError(`Could not find Context field with name ${name}`);
    return row;
  }
}
