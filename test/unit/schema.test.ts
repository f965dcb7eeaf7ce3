import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType, isSpecifiedScalarType, printSchema,
  type GraphQLNamedType,
} from 'graphql';
import { buildSchema } from '../../src/resolvers';

const schema = buildSchema();
const committed = join(__dirname, '..', '..', 'schema', 'schema.graphql');

/** Every named type of the schema that is ours: no introspection types, no built-in scalars. */
const ownTypes = (): GraphQLNamedType[] =>
  Object.values(schema.getTypeMap()).filter((t) => !isIntrospectionType(t) && !isSpecifiedScalarType(t));

/** Names of schema elements (type, field, argument, input field) without a description. */
function undocumented(): string[] {
  const missing: string[] = [];
  const blank = (d: string | null | undefined) => !d || d.trim() === '';
  for (const type of ownTypes()) {
    if (blank(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args) {
          if (blank(arg.description)) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (blank(field.description)) missing.push(`${type.name}.${field.name}`);
      }
    }
  }
  return missing;
}

describe('committed GraphQL schema', () => {
  it('schema/schema.graphql is the printed schema of src/resolvers (run `npm run schema:print` when this fails)', () => {
    const printed = `${printSchema(schema)}\n`;
    expect(readFileSync(committed, 'utf8')).toBe(printed);
  });

  it('has our own types, with the operation roots among them', () => {
    const names = ownTypes().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['Query', 'Mutation', 'Tag', 'Project', 'Event', 'DateTime', 'JSON']));
    expect(names).not.toContain('String');
    expect(names.some((n) => n.startsWith('__'))).toBe(false);
  });

  it('describes every type, field, argument and input field', () => {
    // Count what is checked, so the test cannot pass by checking nothing.
    const checked = ownTypes().reduce((n, t) => {
      if (isObjectType(t) || isInterfaceType(t)) return n + 1 + Object.values(t.getFields()).reduce((m, f) => m + 1 + f.args.length, 0);
      if (isInputObjectType(t)) return n + 1 + Object.keys(t.getFields()).length;
      return n + 1;
    }, 0);
    expect(checked).toBeGreaterThan(200);
    expect(undocumented()).toEqual([]);
  });

});
