import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { Services } from '../domain/services';
import { fieldComplexity } from './cost';

export interface GraphQLContext {
  services: Services;
  /** Aborts when the client's connection closes (a subscription ends then). */
  signal?: AbortSignal;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ComplexityPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  // The budget is enforced once, at validation, with the request's variables (src/resolvers/limits.ts): a refused
  // request is a 400 before any resolver runs. The plugin's own run-time check would only repeat it.
  complexity: { fieldComplexity, disabled: true },
});

builder.addScalarType('DateTime', new GraphQLScalarType<string, string>({
  name: 'DateTime',
  description: 'An RFC 3339 date-time string, for example 2026-11-22T10:00:00.000Z.',
  serialize: (v) => (v instanceof Date ? v.toISOString() : String(v)),
  parseValue: (v) => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new GraphQLError('DateTime must be an RFC 3339 date-time string');
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value))) throw new GraphQLError('DateTime must be an RFC 3339 date-time string');
    return ast.value;
  },
}), {});

builder.addScalarType('JSON', new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'Any JSON value (the `data` and `preData` of audit events).',
  serialize: (v) => v,
  parseValue: (v) => v,
}), {});

builder.queryType({ description: 'Read the feature-flag administration data.' });
builder.subscriptionType({ description: 'Follow the feature-flag administration data live, over server-sent events (send `Accept: text/event-stream`).' });
builder.mutationType({ description: 'Change the feature-flag administration data. Every mutation is validated, permission-checked and audited.' });
