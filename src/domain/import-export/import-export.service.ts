import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { refuseWithoutChangeRequest } from '../change-requests/change-request-guard';
import { change } from '../change';
import { MissingPermissionsError, NotFoundError, ValidationError } from '../errors';
import { assertProjectEnvironment } from '../features/feature.store';
import { loadProject } from '../projects/project.store';
import { parse } from '../validation';
import {
  activeFeaturesNamed, activeFeaturesOfProject, activeFeaturesTagged, environmentExists, exportOf, readImportState,
} from './import-export.read-model';
import type { ExportResult, ImportItem, ImportResult, ImportValidation } from './import-export.shapes';
import { importSchema, type ImportInput } from './import-payload';
import { PERMISSION_ORDER, planImport } from './import-plan';
import { writeImport } from './import-writer';
import { lockFeatureLimit } from './import.store';

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
  async validate(input: ImportInput): Promise<ImportValidation> {
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
  async import(input: ImportInput): Promise<ImportResult> {
    const request = parse(importSchema, input);
    const { project, environment } = request;
    await this.access.check('UPDATE_FEATURE', { project });
    const allowed = await this.allowedIn(project, environment);
    return change(this.em, this.principal, async (tx, emit) => {
      // Lock order (rule 3 in change.ts): the project, then the features, then the definitions they use (shared).
      await loadProject(tx, project, 'share');
      await assertProjectEnvironment(tx, project, environment);
      // New features count against the project's limit: imports and creates in the project take turns (as creating does).
      await lockFeatureLimit(tx, project);
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
    if (!(await environmentExists(this.em, environment))) throw new NotFoundError(`Could not find environment ${environment}`);
    let names: string[];
    if (query.features) {
      names = await activeFeaturesNamed(this.em, [...new Set(query.features)]);
    } else if (query.tag !== undefined) {
      const at = query.tag.indexOf(':');
      if (at <= 0) throw ValidationError.single('tag', 'The `tag` property must look like `type:value`.');
      names = await activeFeaturesTagged(this.em, query.tag.slice(0, at), query.tag.slice(at + 1));
    } else {
      await loadProject(this.em, query.project as string);
      names = await activeFeaturesOfProject(this.em, query.project as string);
    }
    const result = await exportOf(this.em, names, environment);
    await change(this.em, this.principal, async (_tx, emit) => {
      emit({ type: 'features-exported', environment, data: result });
    });
    return result;
  }
}
