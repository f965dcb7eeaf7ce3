import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../dates';
import { ContextFieldSchema, type ContextFieldRow } from './context-field.entity';
import type { ContextField } from './context-field.shapes';

/** The reads of context fields and the mapping of their rows into the `ContextField` both doors return. */

/** How many features (archived included) and projects use a field in their strategy constraints. */
export interface ContextFieldUsage {
  features: number;
  projects: number;
}

export const toContextField = (r: ContextFieldRow, usage?: ContextFieldUsage): ContextField => ({
  name: r.name,
  description: r.description ?? null,
  stickiness: r.stickiness,
  sortOrder: r.sortOrder,
  legalValues: r.legalValues ?? [],
  createdAt: iso(r.createdAt),
  usedInFeatures: usage?.features ?? 0,
  usedInProjects: usage?.projects ?? 0,
});

/** Every field, ordered by name, with its usage; the fields and the usage are read together. */
export async function listContextFields(em: EntityManager): Promise<ContextField[]> {
  const [rows, usage] = await Promise.all([
    em.find(ContextFieldSchema, {}, { orderBy: { name: 'asc' }, disableIdentityMap: true }),
    contextFieldUsage(em),
  ]);
  return rows.map((r) => toContextField(r, usage.get(r.name)));
}

/** Distinct features (archived included) and projects whose strategy constraints reference each field (or `only`). */
export async function contextFieldUsage(em: EntityManager, only?: string): Promise<Map<string, ContextFieldUsage>> {
  // context_field_usage is kept by a trigger on feature_strategies (migration 0003).
  const rows: Array<{ name: string; features: number; projects: number }> = await em.execute(
    `select context_name as name, count(*)::int as features, count(distinct project)::int as projects
       from context_field_usage ${only ? 'where context_name = ?' : ''} group by context_name`,
    only ? [only] : [],
  );
  return new Map(rows.map((r) => [r.name, { features: r.features, projects: r.projects }]));
}
