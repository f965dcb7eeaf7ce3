import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { NameExistsError, NotFoundError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import type { ContextFieldRow } from './context-field.entity';
import { contextFieldUsage, listContextFields, toContextField } from './context-field.read-model';
import type { ContextField } from './context-field.shapes';
import { contextFieldExists, insertContextField, loadContextField, removeContextField } from './context-field.store';

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

/** What the audit log records of a field: its stored properties, without the computed usage counts. */
const eventData = (f: ContextField) => ({ name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sortOrder, legalValues: f.legalValues });

export class ContextFieldService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Spec endpoint 14: every field, ordered by name, with the features and projects whose strategy constraints use it. */
  async list(): Promise<ContextField[]> {
    return listContextFields(this.em);
  }

  async get(name: string): Promise<ContextField> {
    const row = await loadContextField(this.em, name);
    return toContextField(row, (await contextFieldUsage(this.em, name)).get(name));
  }

  async create(input: CreateContextFieldInput): Promise<ContextField> {
    const data = parse(createSchema, input);
    await this.access.check('CREATE_CONTEXT_FIELD');
    return change(this.em, this.principal, async (tx, emit) => {
      if (await contextFieldExists(tx, data.name)) throw new NameExistsError(`A context field with the name ${data.name} already exists`);
      const row = await insertContextField(tx, {
        name: data.name, description: data.description ?? null, stickiness: data.stickiness ?? false,
        sortOrder: data.sortOrder ?? 10, legalValues: data.legalValues ?? [],
      });
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
      const row = await loadContextField(tx, name, 'update');
      emit({ type: 'context-field-deleted', preData: eventData(toContextField(row)) });
      removeContextField(tx, row);
    });
  }

  /** Whether a name could be used for a new field: 400 when invalid, 409 when taken. */
  async validateName(input: unknown): Promise<void> {
    const { name } = parse(validateSchema, input);
    if (await contextFieldExists(this.em, name)) throw new NameExistsError(`A context field with the name ${name} already exists`);
  }

  /** Applies a change to the field; the answer carries its usage counts as a read shows them (read after the commit). */
  private async modify(name: string, apply: (row: ContextFieldRow) => void): Promise<ContextField> {
    const field = await change(this.em, this.principal, async (tx, emit) => {
      const row = await loadContextField(tx, name, 'update');
      const before = toContextField(row);
      apply(row);
      const after = toContextField(row);
      if (!sameJson(eventData(before), eventData(after))) emit({ type: 'context-field-updated', data: eventData(after), preData: eventData(before) });
      return after;
    });
    const usage = (await contextFieldUsage(this.em, name)).get(name);
    return { ...field, usedInFeatures: usage?.features ?? 0, usedInProjects: usage?.projects ?? 0 };
  }
}
