import { z } from 'zod';

/**
 * The shapes of what the domain answers, declared once as zod schemas in each area's `<thing>.shapes.ts`: the
 * TypeScript types services and read models return are inferred from them (`type Tag = z.output<typeof Tag>`), and
 * the REST reference derives its OpenAPI document from the same schemas (src/rest/openapi/document.ts), so the code,
 * the reference and the e2e suite's check of every answer against the reference cannot drift apart.
 */

/**
 * Shapes with a name (`components.schemas` of the REST reference): register one that several answers share with
 * `named('Tag', schema)`; the reference then shows it once and refers to it. Objects are closed: a field an answer
 * carries that its shape lacks fails the e2e suite's response check.
 */
export const componentRegistry = z.registry<{ id: string; description?: string }>();

export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  componentRegistry.add(schema, description ? { id, description } : { id });
  return schema;
}

/** An ISO 8601 timestamp as the service writes it (`iso()`, src/domain/dates.ts). */
export const timestamp = z.string().describe('ISO 8601 date and time');
