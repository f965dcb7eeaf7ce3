import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, NotFoundError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import {
  STRATEGY_COLUMNS, STRATEGY_ORDER, STRATEGY_PARAMETER_TYPES,
  type StrategyDefinitionRow, type StrategyParameter,
} from './strategy-definition.entity';

export type { StrategyParameter, StrategyParameterType } from './strategy-definition.entity';

/** A strategy type as both doors return it (Unleash's strategy shape). */
export interface StrategyDefinition {
  name: string;
  displayName: string | null;
  title: string | null;
  description: string | null;
  /** False for the built-in definitions, which cannot be changed or deleted. */
  editable: boolean;
  deprecated: boolean;
  parameters: StrategyParameter[];
}

/** The message of an unknown strategy type; feature strategies reuse it for their 400. */
export const strategyNotFoundMessage = (name: string) => `Could not find strategy type with name ${name}`;

/** The definition that can never be deprecated: it is what a feature falls back to. */
const DEFAULT_STRATEGY = 'default';

const parameterSchema = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(STRATEGY_PARAMETER_TYPES),
  description: description.nullable().optional(),
  required: z.boolean().optional(),
}).strict();
const parametersSchema = z.array(parameterSchema).max(100).superRefine((params, ctx) => {
  const seen = new Set<string>();
  params.forEach((p, i) => {
    if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `must be unique; "${p.name}" appears more than once` });
    seen.add(p.name);
  });
});
const label = z.string().max(100).nullable().optional();
const fields = {
  title: label,
  displayName: label,
  description: description.nullable().optional(),
  editable: z.boolean().optional(),
  parameters: parametersSchema.optional(),
};
export const createSchema = z.object({ name: urlFriendlyName(1, 100), ...fields }).strict();
export const updateSchema = z.object({ name: z.string().optional(), ...fields }).strict();

export type CreateStrategyInput = z.input<typeof createSchema>;
export type UpdateStrategyInput = z.input<typeof updateSchema>;

const toParameter = (p: Partial<StrategyParameter> & { name: string }): StrategyParameter => ({
  name: p.name,
  type: p.type ?? 'string',
  description: p.description ?? '',
  required: p.required ?? false,
});
const toParameters = (params: z.output<typeof parametersSchema>): StrategyParameter[] =>
  params.map((p) => toParameter({ ...p, description: p.description ?? undefined }));

const toDefinition = (r: StrategyDefinitionRow): StrategyDefinition => ({
  name: r.name,
  displayName: r.display_name ?? null,
  title: r.title ?? null,
  description: r.description ?? null,
  editable: !r.built_in,
  deprecated: r.deprecated,
  parameters: (r.parameters ?? []).map(toParameter),
});

/** Only built-in definitions are not editable: a definition made through the API always is. */
function refuseNotEditable(editable: boolean | undefined): void {
  if (editable === false) {
    throw ValidationError.single('editable', 'The `editable` property can only be true: only the built-in strategy types are not editable.');
  }
}

export class StrategyDefinitionService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Every definition, by sort order then name. */
  async list(): Promise<StrategyDefinition[]> {
    const rows: StrategyDefinitionRow[] = await this.em.execute(`select ${STRATEGY_COLUMNS} from strategies order by ${STRATEGY_ORDER}`);
    return rows.map(toDefinition);
  }

  /** One definition; 404 NotFoundError when there is none of that name. */
  async get(name: string): Promise<StrategyDefinition> {
    return toDefinition(await this.load(this.em, name, false));
  }

  /** Whether a definition of that name exists (deprecated ones included). */
  async exists(name: string): Promise<boolean> {
    const [{ found }]: Array<{ found: boolean }> = await this.em.execute('select exists(select 1 from strategies where name = ?) as found', [name]);
    return found;
  }

  async create(input: CreateStrategyInput): Promise<StrategyDefinition> {
    const data = parse(createSchema, input);
    refuseNotEditable(data.editable);
    await this.access.check('CREATE_STRATEGY');
    return change(this.em, this.principal, async (tx, emit) => {
      // `on conflict do nothing` keeps a concurrent create of the same name a 409 instead of a unique-violation 500.
      const rows: StrategyDefinitionRow[] = await tx.execute(
        `insert into strategies (name, display_name, title, description, parameters, built_in, deprecated)
              values (?, ?, ?, ?, ?::jsonb, false, false)
         on conflict (name) do nothing
         returning ${STRATEGY_COLUMNS}`,
        [data.name, data.displayName ?? null, data.title ?? null, data.description ?? null, JSON.stringify(toParameters(data.parameters ?? []))],
      );
      if (rows.length === 0) throw new NameExistsError(`A strategy type with the name ${data.name} already exists`);
      const created = toDefinition(rows[0]);
      emit({ type: 'strategy-created', data: created });
      return created;
    });
  }

  /** Partial update: absent properties are untouched, `null` empties a text. An update that changes nothing writes no event. */
  async update(name: string, input: UpdateStrategyInput): Promise<StrategyDefinition> {
    const data = parse(updateSchema, input);
    if (data.name !== undefined && data.name !== name) {
      throw ValidationError.single('name', 'The `name` property must equal the strategy type name in the path; a strategy type cannot be renamed.');
    }
    refuseNotEditable(data.editable);
    await this.access.check('UPDATE_STRATEGY');
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, name, true);
      if (row.built_in) throw new InvalidOperationError(`The strategy type ${name} is built in and cannot be changed.`);
      const before = toDefinition(row);
      const after: StrategyDefinition = {
        ...before,
        displayName: data.displayName !== undefined ? data.displayName : before.displayName,
        title: data.title !== undefined ? data.title : before.title,
        description: data.description !== undefined ? data.description : before.description,
        parameters: data.parameters !== undefined ? toParameters(data.parameters) : before.parameters,
      };
      if (sameJson(before, after)) return before;
      await tx.execute(
        'update strategies set display_name = ?, title = ?, description = ?, parameters = ?::jsonb where name = ?',
        [after.displayName, after.title, after.description, JSON.stringify(after.parameters), name],
      );
      emit({ type: 'strategy-updated', data: after, preData: before });
      return after;
    });
  }

  /** Marks a definition deprecated (built-ins too, except `default`). Repeating it changes nothing and writes no event. */
  async deprecate(name: string): Promise<StrategyDefinition> {
    await this.access.check('UPDATE_STRATEGY');
    return this.setDeprecated(name, true);
  }

  /** Undoes `deprecate`. Reactivating an active definition changes nothing and writes no event. */
  async reactivate(name: string): Promise<StrategyDefinition> {
    await this.access.check('UPDATE_STRATEGY');
    return this.setDeprecated(name, false);
  }

  /** Deletes a custom definition that no feature strategy uses. */
  async remove(name: string): Promise<void> {
    await this.access.check('DELETE_STRATEGY');
    await change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, name, true);
      if (row.built_in) throw new InvalidOperationError(`The strategy type ${name} is built in and cannot be deleted.`);
      const [{ features }]: Array<{ features: number }> = await tx.execute(
        'select count(distinct feature_name)::int as features from feature_strategies where strategy_name = ?', [name]);
      if (features > 0) {
        throw new InvalidOperationError(`The strategy type ${name} is used by ${features} feature${features === 1 ? '' : 's'} and cannot be deleted. Remove it from ${features === 1 ? 'that feature' : 'those features'} first.`);
      }
      await tx.execute('delete from strategies where name = ?', [name]);
      emit({ type: 'strategy-deleted', data: { name }, preData: toDefinition(row) });
    });
  }

  private async setDeprecated(name: string, deprecated: boolean): Promise<StrategyDefinition> {
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await this.load(tx, name, true);
      if (deprecated && name === DEFAULT_STRATEGY) {
        throw new InvalidOperationError(`The strategy type ${DEFAULT_STRATEGY} cannot be deprecated: it is the strategy every feature can fall back to.`);
      }
      const definition = toDefinition(row);
      if (row.deprecated === deprecated) return definition;
      await tx.execute('update strategies set deprecated = ? where name = ?', [deprecated, name]);
      emit({ type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } });
      return { ...definition, deprecated };
    });
  }

  /** The row, or 404. `lock` takes a row lock so a change cannot interleave with another on the same definition. */
  private async load(em: EntityManager, name: string, lock: boolean): Promise<StrategyDefinitionRow> {
    const rows: StrategyDefinitionRow[] = await em.execute(
      `select ${STRATEGY_COLUMNS} from strategies where name = ?${lock ? ' for update' : ''}`, [name]);
    if (rows.length === 0) throw new NotFoundError(strategyNotFoundMessage(name));
    return rows[0];
  }
}
