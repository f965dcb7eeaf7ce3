/**
 * Rows of hand-written SQL, typed from the table's entity (`<thing>.entity.ts`), so a table's columns are declared
 * once. Entities name properties in camelCase and MikroORM maps them to snake_case columns; a raw `select` returns
 * the snake_case names, which `TableRow` gives the entity's property types.
 *
 *   type ProjectLimitRow = Pick<TableRow<ProjectRow>, 'id' | 'feature_limit'>;
 */

/** `featureNamingPattern` → `feature_naming_pattern` (MikroORM's default naming strategy). */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** An entity's row as raw SQL returns it: every column under its snake_case name, with the entity's types. */
export type TableRow<E> = { -readonly [K in keyof E & string as SnakeCase<K>]-?: Exclude<E[K], undefined> };
