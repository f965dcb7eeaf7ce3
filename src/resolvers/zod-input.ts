import type { EnumRef, InputFieldMap, InputFieldRef, InputObjectRef, InputShapeFromFields, InputTypeParam } from '@pothos/core';
import { z } from 'zod';
import { builder } from './builder';

/**
 * GraphQL input types built from the zod schemas the services validate with (issue 40), so that a field's type and
 * whether it is required are declared once, in the domain:
 *
 * - string → String; number → Int when the schema asks for an integer, else Float; boolean → Boolean; a literal → the
 *   type of its value;
 * - an enum → the GraphQL enum declared here with the same values (`enumType`), else String;
 * - an object → the input type built from that very schema object (`zodInput`), so nested inputs are built first;
 * - an array → a list of its items (`[X!]`, or `[X]` when the items may be null);
 * - optional, nullable, a default → an optional field (no GraphQL default: the service applies its own); a pipe → what
 *   it takes in (after a preprocessing step: what that step hands on).
 *
 * What the GraphQL input has differently is written by hand in `fields` and replaces the schema's field of that name:
 * the fields that name the target (the REST path's parameters), a JSON scalar for a map, DateTime for a date-time, a
 * renamed field. A field's description comes from `descriptions`, else from the schema's `.describe()`; a field with
 * neither, or of a kind with no GraphQL input type (a record, a union), stops the schema from building and says which.
 */

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
/** The `t` of an input type's fields, for helpers that write fields by hand. */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>;
type Shape = z.core.$ZodShape;

// ---- what a resolver receives, typed from the schema --------------------------------------------------------

type Absent = null | undefined;
/** A value as GraphQL hands it over: anything optional or nullable may be null or absent, at every level. */
type GqlValue<T> = T extends string | number | boolean ? T
  : T extends readonly (infer E)[] ? Array<GqlValue<E>>
    : T extends object ? GqlObject<T>
      : T;
type GqlObject<T> = {
  [K in keyof T as [Extract<T[K], Absent>] extends [never] ? K : never]-?: GqlValue<T[K]>;
} & {
  [K in keyof T as [Extract<T[K], Absent>] extends [never] ? never : K]?: GqlValue<NonNullable<T[K]>> | null;
};
type GqlField<T, Optional extends boolean> = Optional extends true ? GqlValue<NonNullable<T>> | Absent
  : [Extract<T, Absent>] extends [never] ? GqlValue<T> : GqlValue<NonNullable<T>> | Absent;

type DerivedFields<S extends Shape, Keys extends keyof S, Opt extends keyof S> = {
  [K in Keys & string]: InputFieldRef<Types, GqlField<z.input<S[K]>, K extends Opt ? true : false>>;
};

// ---- the types a schema's enums and objects become ----------------------------------------------------------

const enums = new Map<string, EnumRef<Types, string>>();
const objects = new Map<z.ZodType, Array<InputObjectRef<Types, unknown>>>();
const enumKey = (values: readonly string[]) => [...values].sort().join('|');

/**
 * A GraphQL enum whose values are a domain list (for example OPERATORS); a zod enum with the same values becomes this
 * enum in the inputs built here. `valueDescriptions` document each value.
 */
export function enumType<const V extends readonly [string, ...string[]]>(
  name: string, values: V, options: { description: string; valueDescriptions?: Record<V[number], string> },
): EnumRef<Types, V[number], V[number]> {
  const ref = builder.enumType(name, {
    description: options.description,
    values: Object.fromEntries(values.map((v) => [v, { value: v, description: options.valueDescriptions?.[v as V[number]] }])),
  }) as unknown as EnumRef<Types, V[number], V[number]>;
  enums.set(enumKey(values), ref as unknown as EnumRef<Types, string>);
  return ref;
}

type ItemOf<T> = T extends z.ZodOptional<infer I> | z.ZodNullable<infer I> | z.ZodDefault<infer I> ? ItemOf<I>
  : T extends z.ZodArray<infer E> ? E : never;

/** The item schema of an array schema, through optional and nullable: to build an input from a list's element. */
export function itemOf<T extends z.ZodType>(schema: T): ItemOf<T> {
  const { inner } = unwrap(schema);
  const def = inner._zod.def as z.core.$ZodArrayDef;
  if (def.type !== 'array') throw new Error(`itemOf: a zod ${def.type} is not an array`);
  return def.element as unknown as ItemOf<T>;
}

/** The schema inside optional, nullable, default and the like, and whether any of them let the value be absent. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let s = schema;
  let optional = false;
  for (;;) {
    const def = s._zod.def as z.core.$ZodTypeDef & { innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; getter?: () => z.ZodType };
    switch (def.type) {
      case 'optional': case 'nullable': case 'default': case 'prefault': case 'catch':
        optional = true;
        s = def.innerType!;
        break;
      case 'readonly': case 'nonoptional':
        s = def.innerType!;
        break;
      case 'pipe':
        s = def.in!._zod.def.type === 'transform' ? def.out! : def.in!;
        break;
      case 'lazy':
        s = def.getter!();
        break;
      default:
        return { inner: s, optional };
    }
  }
}

/** The description set with `.describe()` on the schema or on anything it wraps. */
function describedAs(schema: z.ZodType): string | undefined {
  let s: z.ZodType | undefined = schema;
  while (s) {
    const own = z.globalRegistry.get(s)?.description;
    if (own) return own;
    const def = s._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    s = def.innerType ?? def.in;
  }
  return undefined;
}

/** The GraphQL type of a schema that is not a list. */
function namedType(schema: z.ZodType, where: string): InputTypeParam<Types> {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string': return 'String';
    case 'boolean': return 'Boolean';
    case 'number': {
      const n = schema as z.ZodType & { isInt?: boolean; format?: string | null };
      return n.isInt || /int/.test(n.format ?? '') ? 'Int' : 'Float';
    }
    case 'literal': {
      const [value] = (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values;
      if (typeof value === 'string') return 'String';
      if (typeof value === 'boolean') return 'Boolean';
      if (typeof value === 'number') return Number.isInteger(value) ? 'Int' : 'Float';
      break;
    }
    case 'enum':
      return enums.get(enumKey(Object.values((def as z.core.$ZodEnumDef).entries).map(String))) ?? 'String';
    case 'object': {
      const refs = objects.get(schema) ?? [];
      if (refs.length === 1) return refs[0];
      throw new Error(`${where}: ${refs.length === 0 ? 'no input type is built from this object schema' : 'several input types are built from this object schema (nested: false on all but one)'}; build it with zodInput first, or give the field by hand`);
    }
    default:
  }
  throw new Error(`${where}: a zod ${def.type} has no GraphQL input type; give the field by hand`);
}

/** The GraphQL type and requiredness of one field of a schema. */
function fieldType(schema: z.ZodType, where: string, forceOptional: boolean): { type: InputTypeParam<Types>; required: boolean | { list: boolean; items: boolean } } {
  const { inner, optional } = unwrap(schema);
  const required = !optional && !forceOptional;
  const def = inner._zod.def;
  if (def.type !== 'array') return { type: namedType(inner, where), required };
  const item = unwrap((def as z.core.$ZodArrayDef).element as z.ZodType);
  if (item.inner._zod.def.type === 'array') throw new Error(`${where}: a list of lists has no GraphQL input type here; give the field by hand`);
  return { type: [namedType(item.inner, where)] as InputTypeParam<Types>, required: { list: required, items: !item.optional } };
}

/**
 * The input type `name` built from `schema`: every field of the schema but those in `omit` and those `fields` writes
 * by hand; `optional` lists fields GraphQL takes as optional although the schema requires them (the service's own
 * check then answers, naming the field). An input built from a schema object is the type of that object where another
 * schema holds it, unless `nested` is false (an input that adds the key of its target to the object, when another
 * input is the object's own).
 */
export function zodInput<
  S extends Shape,
  Hand extends InputFieldMap = {},
  Omitted extends keyof S = never,
  Opt extends keyof S = never,
>(name: string, schema: z.ZodObject<S, z.core.$ZodObjectConfig>, options: {
  description: string;
  descriptions?: { [K in Exclude<keyof S, Omitted | keyof Hand>]?: string };
  omit?: readonly Omitted[];
  optional?: readonly Opt[];
  fields?: (t: InputFields) => Hand;
  nested?: boolean;
}) {
  type Fields = DerivedFields<S, Exclude<keyof S, Omitted | keyof Hand>, Opt> & Hand;
  const ref = builder.inputType<string, Fields>(name, {
    description: options.description,
    fields: (t) => {
      const hand = options.fields?.(t) ?? ({} as Hand);
      const omitted = new Set<PropertyKey>(options.omit ?? []);
      const optional = new Set<PropertyKey>(options.optional ?? []);
      const derived: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(schema.shape)) {
        if (omitted.has(key) || key in hand) continue;
        const where = `${name}.${key}`;
        const description = (options.descriptions as Record<string, string | undefined> | undefined)?.[key] ?? describedAs(field as z.ZodType);
        if (!description) throw new Error(`${where}: no description (pass one in descriptions, or .describe() the schema)`);
        derived[key] = t.field({ ...fieldType(field as z.ZodType, where, optional.has(key)), description } as never);
      }
      return { ...derived, ...hand } as Fields;
    },
  });
  if (options.nested !== false) objects.set(schema, [...(objects.get(schema) ?? []), ref as InputObjectRef<Types, unknown>]);
  return ref as InputObjectRef<Types, InputShapeFromFields<Fields>>;
}
