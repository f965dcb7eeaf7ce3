import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import { MissingPermissionsError, NotFoundError, ValidationError } from '../errors';
import { assertProjectEnvironment } from '../features/feature.store';
import { FeatureReadModel, strategyKey, type FeatureDependency } from '../features/feature.read-model';
import { canonicalVariant, type FeatureVariant } from '../features/variants';
import { loadProject } from '../projects/project.store';
import { parse } from '../validation';
import { importSchema, type ImportInput } from './import-payload';
import { PERMISSION_ORDER, planImport, readImportState, type FeatureImportChange, type ImportItem, type ImportReport } from './import-plan';
import { writeImport } from './import-writer';

export const exportSchema = z.object({
  features: z.array(z.string().min(1).max(100)).min(1).max(10_000).optional(),
  tag: z.string().min(1).max(101).optional(),
  project: z.string().min(1).max(100).optional(),
  environment: z.string().min(1).max(100),
  downloadFile: z.boolean().optional(),
}).strict().superRefine((q, ctx) => {
  const given = [q.features, q.tag, q.project].filter((x) => x !== undefined).length;
  if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'Give exactly one of `features`, `tag` (as `type:value`) or `project` to choose the features to export.' });
});

export type ExportInput = z.input<typeof exportSchema>;

/** The batch export: the import payload's `data` (spec "Import payload"), for one environment. */
export interface ExportResult {
  features: Array<{ name: string; type: string; description: string | null; project: string; stale: boolean; impressionData: boolean; archived: boolean }>;
  featureStrategies: Array<{
    id: string; name: string; title: string | null; disabled: boolean; featureName: string; sortOrder: number; segments: number[];
    constraints: unknown[]; variants: unknown[]; parameters: Record<string, string>;
  }>;
  featureEnvironments: Array<{ name: string; featureName: string; environment: string; enabled: boolean; variants: FeatureVariant[] }>;
  contextFields: Array<{ name: string; description: string | null; stickiness: boolean; sortOrder: number; legalValues: Array<{ value: string; description?: string }> }>;
  featureTags: Array<{ featureName: string; tagType: string; tagValue: string }>;
  segments: Array<{ id: number; name: string }>;
  tagTypes: Array<{ name: string; description: string | null; icon: string | null }>;
  dependencies: Array<{ feature: string; dependencies: FeatureDependency[] }>;
}

/** What an import did: the warnings validation gave and, per feature, what changed. */
export interface ImportOutcome {
  warnings: ImportItem[];
  changes: FeatureImportChange[];
}

/** The message of a refused import: each of validation's errors with the items it names. */
const refusal = (errors: ImportItem[]) => ValidationError.of(errors.map((e) => ({
  path: 'data', message: e.affectedItems.length ? `${e.message} ${e.affectedItems.join(', ')}` : e.message,
})));

/**
 * Batch export, import validation and import (spec endpoint 15 and the Import payload; reference endpoint 15). One
 * planner (import-plan.ts) answers validation and drives the import, so an import is refused for exactly what
 * validation reports as errors, and writes exactly the changes validation lists.
 */
export class ImportExportService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /** Which permissions of an import the caller holds in its project and environment (their grants read once, outside any transaction). */
  private async allowedIn(project: string, environment: string): Promise<(permission: string) => boolean> {
    const held = new Map<string, boolean>();
    for (const p of PERMISSION_ORDER) held.set(p, await this.access.allows(p, { project, environment }));
    return (p) => held.get(p) === true;
  }

  /** POST /features-batch/validate: errors, warnings, missing permissions and what would change. Writes nothing. */
  async validate(input: ImportInput): Promise<ImportReport> {
    const request = parse(importSchema, input);
    const allowed = await this.allowedIn(request.project, request.environment);
    const state = await readImportState(this.em, request);
    return planImport(request, state, allowed).report;
  }

  /**
   * POST /features-batch/import: all or nothing, in one transaction. Refused with 403 NoAccessError (naming every
   * missing permission) or 400 ValidationError (one detail per validation error) before anything is written; a
   * failure while writing rolls everything back. Event features-imported, plus each change's own events.
   */
  async import(input: ImportInput): Promise<ImportOutcome> {
    const request = parse(importSchema, input);
    const { project, environment } = request;
    await this.access.check('UPDATE_FEATURE', { project });
    const allowed = await this.allowedIn(project, environment);
    return change(this.em, this.principal, async (tx, emit) => {
      // Lock order (rule 3 in change.ts): the project, then the features, then the definitions they use (shared).
      await loadProject(tx, project, 'share');
      await assertProjectEnvironment(tx, project, environment);
      // New features count against the project's limit: imports and creates in the project take turns (as creating does).
      await tx.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`features.limit:${project}`]);
      const state = await readImportState(tx, request, { features: 'update', definitions: 'share' });
      const plan = planImport(request, state, allowed);
      const missing = plan.required.filter((p) => !allowed(p));
      if (missing.length) {
        throw new MissingPermissionsError(missing, environment,
          `You don't have the required permissions to perform this operation. To import these features into project "${project}" and environment "${environment}", you need the ${missing.map((p) => `"${p}"`).join(', ')} permission${missing.length > 1 ? 's' : ''}.`);
      }
      if (plan.report.errors.length) throw refusal(plan.report.errors);
      // Change requests (issue 12): what they guard when made directly is guarded here too: the environment's strategies,
      // switch and variants, and dependencies (guarded in every environment of the project).
      const changes = plan.report.changes;
      if (changes.some((c) => c.dependencies.added.length || c.dependencies.removed.length)) {
        await refuseWithoutChangeRequest(tx, this.principal, this.access, project);
      } else if (changes.some((c) => c.strategies.added.length || c.strategies.removed.length || c.enabled || c.variants)) {
        await refuseWithoutChangeRequest(tx, this.principal, this.access, project, environment);
      }
      await writeImport(tx, emit, this.principal, project, environment, plan);
      emit({ type: 'features-imported', project, environment, data: request.data });
      return { warnings: plan.report.warnings, changes: plan.report.changes };
    });
  }

  /** POST /features-batch/export: the chosen active features' configuration in one environment. Event features-exported. */
  async export(input: ExportInput): Promise<ExportResult> {
    const query = parse(exportSchema, input);
    const { environment } = query;
    const env = await this.em.execute(`select name from environments where name = ?`, [environment]);
    if (env.length === 0) throw new NotFoundError(`Could not find environment ${environment}`);
    let names: string[];
    if (query.features) {
      const rows: Array<{ name: string }> = await this.em.execute(`select name from features where name in (?) and archived_at is null order by name`, [[...new Set(query.features)]]);
      names = rows.map((r) => r.name);
    } else if (query.tag !== undefined) {
      const at = query.tag.indexOf(':');
      if (at <= 0) throw ValidationError.single('tag', 'The `tag` property must look like `type:value`.');
      const rows: Array<{ name: string }> = await this.em.execute(
        `select f.name from features f join feature_tags ft on ft.feature_name = f.name where ft.tag_type = ? and ft.tag_value = ? and f.archived_at is null order by f.name`,
        [query.tag.slice(0, at), query.tag.slice(at + 1)]);
      names = rows.map((r) => r.name);
    } else {
      await loadProject(this.em, query.project as string);
      const rows: Array<{ name: string }> = await this.em.execute(`select name from features where project = ? and archived_at is null order by name`, [query.project]);
      names = rows.map((r) => r.name);
    }
    const result = await this.exportOf(names, environment);
    await change(this.em, this.principal, async (_tx, emit) => {
      emit({ type: 'features-exported', environment, data: result });
    });
    return result;
  }

  private async exportOf(names: string[], environment: string): Promise<ExportResult> {
    const empty: ExportResult = { features: [], featureStrategies: [], featureEnvironments: [], contextFields: [], featureTags: [], segments: [], tagTypes: [], dependencies: [] };
    if (names.length === 0) return empty;
    const read = new FeatureReadModel(this.em);
    const [summaries, strategies, envRows, tags, deps] = await Promise.all([
      read.summaries({ names }),
      read.strategies(names),
      this.em.execute(`select feature_name, enabled, variants from feature_environments where environment = ? and feature_name in (?) order by feature_name`, [environment, names]) as Promise<Array<{ feature_name: string; enabled: boolean; variants: FeatureVariant[] | null }>>,
      read.tags(names),
      read.dependencies(names),
    ]);
    const featureStrategies = names.flatMap((n) => (strategies.get(strategyKey(n, environment)) ?? []).map((s) => ({
      id: s.id, name: s.name, title: s.title, disabled: s.disabled, featureName: s.featureName, sortOrder: s.sortOrder, segments: s.segments,
      constraints: s.constraints, variants: s.variants, parameters: s.parameters,
    })));
    const segmentIds = [...new Set(featureStrategies.flatMap((s) => s.segments))].sort((a, b) => a - b);
    const fieldNames = [...new Set(featureStrategies.flatMap((s) => s.constraints.map((c) => (c as { contextName: string }).contextName)))].sort();
    const featureTags = names.flatMap((n) => (tags.get(n) ?? []).map((t) => ({ featureName: n, tagType: t.type, tagValue: t.value })));
    const tagTypeNames = [...new Set(featureTags.map((t) => t.tagType))].sort();
    const [segments, fields, tagTypes] = await Promise.all([
      segmentIds.length ? this.em.execute(`select id, name from segments where id in (?) order by id`, [segmentIds]) as Promise<Array<{ id: number; name: string }>> : [],
      fieldNames.length ? this.em.execute(`select name, description, stickiness, sort_order, legal_values from context_fields where name in (?) order by name`, [fieldNames]) as Promise<Array<{
        name: string; description: string | null; stickiness: boolean; sort_order: number; legal_values: ExportResult['contextFields'][number]['legalValues'] | null;
      }>> : [],
      tagTypeNames.length ? this.em.execute(`select name, description, icon from tag_types where name in (?) order by name`, [tagTypeNames]) as Promise<ExportResult['tagTypes']> : [],
    ]);
    return {
      features: summaries.map((f) => ({ name: f.name, type: f.type, description: f.description, project: f.project, stale: f.stale, impressionData: f.impressionData, archived: false })),
      featureStrategies,
      featureEnvironments: envRows.map((e) => ({ name: e.feature_name, featureName: e.feature_name, environment, enabled: e.enabled, variants: (e.variants ?? []).map(canonicalVariant) })),
      contextFields: fields.map((f) => ({ name: f.name, description: f.description, stickiness: f.stickiness, sortOrder: f.sort_order, legalValues: f.legal_values ?? [] })),
      featureTags,
      segments: segments.map((s) => ({ id: s.id, name: s.name })),
      tagTypes: tagTypes.map((t) => ({ name: t.name, description: t.description ?? null, icon: t.icon ?? null })),
      dependencies: names.flatMap((n) => {
        const list = deps.get(n) ?? [];
        return list.length ? [{ feature: n, dependencies: list }] : [];
      }),
    };
  }
}
