import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { InvalidOperationError, NameExistsError, ValidationError } from '../errors';
import { description, parse, sameJson, urlFriendlyName } from '../validation';
import { definitionExists, listDefinitions, toDefinition, toParameter } from './strategy-definition.read-model';
import { STRATEGY_PARAMETER_TYPES, type StrategyDefinition, type StrategyParameter } from './strategy-definition.shapes';
import {
  countFeaturesUsingDefinition, deleteDefinition, insertDefinition, loadStrategyDefinition, setDefinitionDeprecated, updateDefinition,
} from './strategy-definition.store';

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

const toParameters = (params: z.output<typeof parametersSchema>): StrategyParameter[] =>
  params.map((p) => toParameter({ ...p, description: p.description ?? undefined }));

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
    return listDefinitions(this.em);
  }

  /** One definition; 404 NotFoundError when there is none of that name. */
  async get(name: string): Promise<StrategyDefinition> {
    return toDefinition(await loadStrategyDefinition(this.em, name));
  }

  /** Whether a definition of that name exists (deprecated ones included). */
  async exists(name: string): Promise<boolean> {
    return definitionExists(this.em, name);
  }

  async create(input: CreateStrategyInput): Promise<StrategyDefinition> {
    const data = parse(createSchema, input);
    refuseNotEditable(data.editable);
    await this.access.check('CREATE_STRATEGY');
    return change(this.em, this.principal, async (tx, emit) => {
      // A concurrent create of the same name finds it taken (409), never a unique violation (500).
      const row = await insertDefinition(tx, data.name, {
        displayName: data.displayName ?? null, title: data.title ?? null, description: data.description ?? null, parameters: toParameters(data.parameters ?? []),
      });
      if (!row) throw new NameExistsError(`A strategy type with the name ${data.name} already exists`);
      const created = toDefinition(row);
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
      const row = await loadStrategyDefinition(tx, name, 'update');
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
      await updateDefinition(tx, name, after);
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
      const row = await loadStrategyDefinition(tx, name, 'update');
      if (row.built_in) throw new InvalidOperationError(`The strategy type ${name} is built in and cannot be deleted.`);
      const features = await countFeaturesUsingDefinition(tx, name);
      if (features > 0) {
        throw new InvalidOperationError(`The strategy type ${name} is used by ${features} feature${features === 1 ? '' : 's'} and cannot be deleted. Remove it from ${features === 1 ? 'that feature' : 'those features'} first.`);
      }
      await deleteDefinition(tx, name);
      emit({ type: 'strategy-deleted', data: { name }, preData: toDefinition(row) });
    });
  }

  private async setDeprecated(name: string, deprecated: boolean): Promise<StrategyDefinition> {
    return change(this.em, this.principal, async (tx, emit) => {
      const row = await loadStrategyDefinition(tx, name, 'update');
      if (deprecated && name === DEFAULT_STRATEGY) {
        throw new InvalidOperationError(`The strategy type ${DEFAULT_STRATEGY} cannot be deprecated: it is the strategy every feature can fall back to.`);
      }
      const definition = toDefinition(row);
      if (row.deprecated === deprecated) return definition;
      await setDefinitionDeprecated(tx, name, deprecated);
      emit({ type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } });
      return { ...definition, deprecated };
    });
  }
}
