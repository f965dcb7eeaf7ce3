import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p, type EntitySchema } from '@mikro-orm/core';
import { DatabaseSchema, MikroORM, SchemaComparator, type Column, type IndexDef, type SchemaDifference } from '@mikro-orm/postgresql';
import { openOrm, ormConfig } from '../../src/db/orm';
import type { ApiTokenRow } from '../../src/domain/access/api-token.entity';
import type { AddonDeliveryRow } from '../../src/domain/addons/addon-delivery.entity';
import type { ClientChangeRow } from '../../src/domain/client-features/revision-log.entity';
import { entities } from '../../src/domain/entities';
import type { EventRow } from '../../src/domain/events/event.entity';
import type { ModelVersionRow } from '../../src/domain/model-version.entity';
import type { ProjectEnvironmentRow } from '../../src/domain/projects/project.entity';
import type { TableRow } from '../../src/domain/rows';

/**
 * Issue 40: every table has an entity (src/domain/entities.ts), and the entities say what the migrations made. The
 * migrated database (the suite's, embedded or PostgreSQL) is read with MikroORM's schema reader and compared with the
 * entities' schema by MikroORM's SchemaComparator, which is what `schema:update` would act on.
 *
 * What is compared (what an entity declares, and what the ORM uses when it reads or writes a row):
 * - tables: every table has an entity (MikroORM's `mikro_orm_migrations` aside), every entity a table;
 * - columns: every column is declared, with its type, nullability, default, serial-ness and, for a text column limited
 *   by a `check (x in (...))`, its values (MikroORM reads such a check as enum items);
 * - primary keys, and unique constraints on plain columns (the ORM uses them: the target of an upsert, the order of
 *   its writes when one flush changes a unique value of two rows).
 * What is left to the migrations, and why: indexes (plain, partial and on expressions, unique ones like
 * `lower(username)` included), foreign keys, other check constraints, triggers and functions. The ORM never creates the
 * schema (the migrations do, and are the one place that says how), and none of these changes how it maps a row;
 * declaring foreign keys would even take relations (`p.manyToOne`), which change how the ORM loads and orders entities
 * and the types of their properties. An entity that does declare one of them is compared like the rest.
 *
 * Two tables have no primary key (`role_permissions`, `client_changes`); MikroORM needs one, so their entities name
 * an identity the test expects in place of the database's (PK_LESS).
 */

/** Tables without a primary key, and the columns their entity names as one instead. */
const PK_LESS: Record<string, string[]> = {
  role_permissions: ['role_id', 'permission', 'environment'],
  client_changes: ['txid', 'kind', 'key', 'environment', 'project'],
};

const describeColumn = (c: Column) =>
  `${c.type}${c.nullable ? '' : ' not null'}${c.default != null ? ` default ${c.default}` : ''}${c.autoincrement ? ' (serial)' : ''}`
  + `${c.enumItems?.length ? ` in (${c.enumItems.join(', ')})` : ''}`;
const columnsOf = (index: IndexDef) => `(${index.columnNames.join(', ')})`;
/** A unique constraint or index on plain columns (not partial, not on expressions): entities declare these. */
const plainUnique = (index: IndexDef) => index.unique && !index.primary && !index.expression;

/** What an entity says that the database does not, and the reverse, one line each (empty: no drift). */
function drift(diff: SchemaDifference): string[] {
  const out: string[] = [];
  const unqualified = (name: string) => name.replace(/^public\./, '');
  for (const name of Object.keys(diff.newTables)) out.push(`${unqualified(name)}: an entity declares this table, the database has none`);
  for (const name of Object.keys(diff.removedTables)) out.push(`${unqualified(name)}: a table of the database, no entity declares it`);
  for (const namespace of diff.newNamespaces) out.push(`schema ${namespace}: declared by an entity, not in the database`);
  for (const e of [...diff.newNativeEnums, ...diff.removedNativeEnums]) out.push(`native enum ${e.name}: differs`);
  for (const [name, t] of Object.entries(diff.changedTables)) {
    const table = unqualified(name);
    for (const [column, c] of Object.entries(t.addedColumns)) {
      out.push(`${table}.${column}: the entity declares it (${describeColumn(c)}), the database has no such column`);
    }
    for (const [column, c] of Object.entries(t.removedColumns)) {
      out.push(`${table}.${column}: a column of the database (${describeColumn(c)}), not declared by the entity`);
    }
    for (const [column, c] of Object.entries(t.renamedColumns)) {
      out.push(`${table}.${column}: a column of the database, which the entity declares as ${c.name}`);
    }
    for (const [column, c] of Object.entries(t.changedColumns)) {
      for (const property of c.changedProperties) {
        const show = (col: Column) => {
          const value = (col as unknown as Record<string, unknown>)[property];
          if (property === 'nullable') return value ? 'null' : 'not null';
          return value === undefined || value === null ? 'none' : Array.isArray(value) ? `(${value.join(', ')})` : String(value);
        };
        out.push(`${table}.${column}: ${property} is ${show(c.fromColumn)} in the database, ${show(c.column)} in the entity`);
      }
    }
    // Keys: the primary key (with the two tables that have none) and unique constraints on plain columns.
    const pkLess = PK_LESS[table];
    const dbPrimary = t.fromTable.getPrimaryKey();
    if (pkLess && dbPrimary) out.push(`${table}: has a primary key ${columnsOf(dbPrimary)} now; take it out of the test's PK_LESS`);
    for (const index of Object.values(t.addedIndexes)) {
      if (index.primary) {
        if (pkLess && !dbPrimary && columnsOf(index) === `(${pkLess.join(', ')})`) continue;
        out.push(`${table}: primary key ${columnsOf(index)} in the entity, none in the database`);
      } else {
        out.push(`${table}: ${index.unique ? 'unique' : 'index'} ${index.keyName} ${columnsOf(index)} in the entity, not in the database`);
      }
    }
    for (const index of Object.values(t.removedIndexes)) {
      if (index.primary) out.push(`${table}: primary key ${columnsOf(index)} in the database, none in the entity`);
      else if (plainUnique(index)) out.push(`${table}: unique ${index.keyName} ${columnsOf(index)} in the database, not declared by the entity`);
    }
    for (const [name, index] of Object.entries(t.changedIndexes)) {
      const before = index.primary ? dbPrimary : t.fromTable.getIndex(name);
      out.push(`${table}: ${index.primary ? 'primary key' : name} is ${before ? columnsOf(before) : '?'} in the database, ${columnsOf(index)} in the entity`);
    }
    for (const [name, index] of Object.entries(t.renamedIndexes)) {
      out.push(`${table}: ${columnsOf(index)} is named ${name} in the database, ${index.keyName} in the entity`);
    }
    // Declared by an entity: compared. Only in the database: the migrations' (see above).
    for (const check of [...Object.values(t.addedChecks), ...Object.values(t.changedChecks)]) {
      out.push(`${table}: check ${check.name} (${String(check.expression)}) in the entity differs from the database`);
    }
    for (const fk of [...Object.values(t.addedForeignKeys), ...Object.values(t.changedForeignKeys)]) {
      out.push(`${table}: foreign key ${fk.constraintName} in the entity differs from the database`);
    }
    if (t.changedComment !== undefined) out.push(`${table}: comment ${t.changedComment} in the entity differs from the database`);
  }
  return out.sort();
}

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm({ url: process.env.DATABASE_URL!, poolMax: 1 }); // migrated, as at every start
});
afterAll(async () => { await orm?.close(true); });

/** The drift between the migrated database and `schemas` (default: the service's entities). */
async function compare(schemas: EntitySchema<any, any>[] = entities): Promise<string[]> {
  const platform = orm.em.getPlatform();
  const database = await DatabaseSchema.create(orm.em.getConnection(), platform, orm.config);
  if (schemas === entities) return drift(new SchemaComparator(platform).compare(database, orm.getSchemaGenerator().getTargetSchema()));
  const other = MikroORM.initSync({ ...ormConfig({ url: process.env.DATABASE_URL!, poolMax: 1 }), entities: schemas });
  try {
    return drift(new SchemaComparator(platform).compare(database, other.getSchemaGenerator().getTargetSchema()));
  } finally {
    await other.close(true);
  }
}

describe('the entities and the migrated database', () => {
  it('agree: every table, column, primary key and plain unique constraint is declared as the migrations made it', async () => {
    expect(await compare()).toEqual([]);
  });

  it('a drift of any kind is reported, one line each', async () => {
    // The entities with one drift each, in place of the service's.
    const drifted = [
      // a column of the wrong type, and a column left out
      defineEntity({
        name: 'ProjectEnvironment', tableName: 'project_environments',
        properties: {
          projectId: p.text().primary(), environmentName: p.text().primary(), defaultStrategy: p.json().nullable(),
          requiredApprovals: p.smallint().default(1),
        },
      }),
      // a column the table lacks, a primary key of one column instead of two, and an index the database does not have
      defineEntity({
        name: 'Tag', tableName: 'tags',
        properties: { type: p.text().primary(), value: p.text(), createdAt: p.datetime().defaultRaw('now()'), color: p.text().nullable() },
        indexes: [{ name: 'tags_value_idx', properties: ['value'] }],
      }),
      // nullability, and a unique constraint left out
      defineEntity({
        name: 'ApiToken', tableName: 'api_tokens',
        properties: {
          id: p.integer().primary(), secretHash: p.text(), tokenName: p.text(), type: p.enum(['admin', 'client', 'frontend']),
          projects: p.array().default(['*']), environment: p.text().default('*'), createdAt: p.datetime().defaultRaw('now()'),
          seenAt: p.datetime(), expiresAt: p.datetime().nullable(), createdBy: p.text().nullable(), createdByUserId: p.integer().nullable(),
        },
      }),
      // a default, and a serial that is not
      defineEntity({
        name: 'Environment', tableName: 'environments',
        properties: {
          name: p.text().primary(), type: p.text(), sortOrder: p.integer().default(1).autoincrement(), enabled: p.boolean().default(true),
          protected: p.boolean().default(false), createdAt: p.datetime().defaultRaw('now()'),
        },
      }),
      // the values of a checked column
      defineEntity({
        name: 'Project', tableName: 'projects',
        properties: {
          id: p.text().primary(), name: p.text(), description: p.text().nullable(), mode: p.enum(['open', 'protected']).default('open'),
          defaultStickiness: p.text().default('default'), featureLimit: p.integer().nullable(), featureNamingPattern: p.text().nullable(),
          featureNamingExample: p.text().nullable(), featureNamingDescription: p.text().nullable(), health: p.integer().default(100),
          createdAt: p.datetime().defaultRaw('now()'), updatedAt: p.datetime().nullable(),
        },
      }),
      // an entity without a table
      defineEntity({ name: 'Ghost', tableName: 'ghosts', properties: { id: p.integer().primary() } }),
      // and no entity for `features`
      ...entities.filter((e) => !['ProjectEnvironment', 'Tag', 'ApiToken', 'Environment', 'Project', 'Feature'].includes(e.meta.className)),
    ];
    expect(await compare(drifted)).toEqual([
      'api_tokens.seen_at: nullable is null in the database, not null in the entity',
      'api_tokens: unique api_tokens_secret_hash_key (secret_hash) in the database, not declared by the entity',
      'environments.sort_order: autoincrement is false in the database, true in the entity',
      'environments.sort_order: default is 0 in the database, 1 in the entity',
      'features: a table of the database, no entity declares it',
      'ghosts: an entity declares this table, the database has none',
      'project_environments.change_requests_enabled: a column of the database (bool not null default false), not declared by the entity',
      'project_environments.required_approvals: type is int4 in the database, smallint in the entity',
      'projects.mode: enumItems is (open, protected, private) in the database, (open, protected) in the entity',
      'tags.color: the entity declares it (text), the database has no such column',
      'tags: index tags_value_idx (value) in the entity, not in the database',
      'tags: primary key is (type, value) in the database, (type) in the entity',
    ]);
  });

  it('names each column as TableRow does: the snake_case of its property', () => {
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const misnamed = Object.values(orm.getMetadata().getAll()).flatMap((meta) =>
      meta.props.filter((prop) => prop.fieldNames?.length !== 1 || prop.fieldNames[0] !== snake(prop.name))
        .map((prop) => `${meta.tableName}.${prop.name}: column ${prop.fieldNames?.join(', ')}`));
    expect(misnamed).toEqual([]);
  });

  it('types each column as a raw select returns it, as TableRow says (timestamps and int8 as text)', async () => {
    // A value of each column type the migrations use, selected through the service's connection as a store would.
    const samples: Record<string, string> = {
      integer: '1', bigint: '1', text: `'x'`, boolean: 'true', 'timestamp with time zone': 'now()', jsonb: `'{}'`, 'text[]': `'{x}'`,
      uuid: 'gen_random_uuid()', xid8: 'pg_current_xact_id()', 'character(1)': `'f'`,
    };
    const em = orm.em.fork();
    const columns = await em.execute<Array<{ table: string; column: string; type: string }>>(
      `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
         from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped and c.relname <> 'mikro_orm_migrations'
        order by 1, a.attnum`);
    const types = [...new Set(columns.map((c) => c.type))];
    expect(types.filter((type) => !(type in samples))).toEqual([]); // a new column type needs a sample here
    const [raw] = await em.execute<Array<Record<string, unknown>>>(`select ${types.map((type, i) => `${samples[type]}::${type} as v${i}`).join(', ')}`);
    const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value instanceof Date ? 'Date' : typeof value);
    const returned = new Map(types.map((type, i) => [type, kindOf(raw[`v${i}`])]));
    // What TableRow gives the entity's property (RawValue in src/domain/rows.ts: Date becomes text).
    const declared = (runtimeType: string, columnType: string) =>
      runtimeType === 'Date' ? 'string' : runtimeType.endsWith('[]') ? 'array' : ['string', 'number', 'boolean'].includes(runtimeType) ? runtimeType
        : columnType === 'jsonb' ? 'object' : runtimeType;
    const metas = new Map(Object.values(orm.getMetadata().getAll()).map((meta) => [meta.tableName, meta]));
    const wrong = columns.flatMap(({ table, column, type }) => {
      const prop = metas.get(table)?.props.find((pr) => pr.fieldNames?.[0] === column);
      if (!prop) return [`${table}.${column}: no property`];
      const want = declared(prop.runtimeType, type);
      return want === returned.get(type) ? [] : [`${table}.${column} (${type}): a raw select returns ${returned.get(type)}, TableRow says ${want}`];
    });
    expect(wrong).toEqual([]);
  });
});

// TableRow, checked by the type checker (`npm run typecheck`): the raw-SQL names and types of a few entities.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const sameType = <T extends true>(): T | undefined => undefined;
sameType<Equal<TableRow<ProjectEnvironmentRow>, {
  project_id: string; environment_name: string; default_strategy: Record<string, unknown> | null; change_requests_enabled: boolean;
  required_approvals: number;
}>>();
sameType<Equal<TableRow<ApiTokenRow>, {
  id: number; secret_hash: string; token_name: string; type: 'admin' | 'client' | 'frontend'; projects: string[]; environment: string;
  created_at: string; seen_at: string | null; expires_at: string | null; created_by: string | null; created_by_user_id: number | null;
}>>();
sameType<Equal<TableRow<EventRow>['id'], string>>();
sameType<Equal<TableRow<ModelVersionRow>, { id: number; version: string }>>();
sameType<Equal<Pick<TableRow<AddonDeliveryRow>, 'seq' | 'event_id' | 'claim' | 'next_attempt_at'>, {
  seq: string; event_id: string; claim: string | null; next_attempt_at: string;
}>>();
sameType<Equal<TableRow<ClientChangeRow>, { txid: string; kind: 'f' | 's'; key: string; environment: string | null; project: string | null }>>();
