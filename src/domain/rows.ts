import type { Opt } from '@mikro-orm/core';

/**
 * Rows of hand-written SQL, typed from the table's entity (`<thing>.entity.ts`), so a table's columns are declared
 * once. Entities name properties in camelCase and MikroORM maps them to snake_case columns; a raw `select` returns
 * the snake_case names, which `TableRow` gives the types a raw select returns (`RawValue`).
 *
 *   type ProjectLimitRow = Pick<TableRow<ProjectRow>, 'id' | 'feature_limit'>;
 */

/** `featureNamingPattern` → `feature_naming_pattern` (MikroORM's default naming strategy). */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * What a raw select (`em.execute`) returns for a column the entity reads as `T`. MikroORM's PostgreSQL connection
 * leaves timestamps unparsed, so `timestamptz` arrives as text (`'2026-01-02 03:04:05.678+00'`) where the entity
 * hydrates a `Date`; `iso()` (src/domain/dates.ts) reads both. Every other column arrives as the entity declares it:
 * int8 as text (no type parser is set for it, so entities declare bigint columns `p.bigint('string')`), int4 as a
 * number, jsonb parsed, text[] as an array. test/e2e/entities.test.ts checks this for every column.
 */
export type RawValue<T> = T extends Date ? string : T;

/** `T` without MikroORM's `Opt` brand, which `InferEntity` puts on properties with a default. */
export type Unbranded<T> = T extends infer U & Opt.Brand ? U : T;

/** An entity's row as raw SQL returns it: every column under its snake_case name, with the type a raw select gives it. */
export type TableRow<E> = { -readonly [K in keyof E & string as SnakeCase<K>]-?: RawValue<Unbranded<Exclude<E[K], undefined>>> };
