import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { change } from '../change';
import { ConflictError, ForbiddenError, InvalidOperationError, NoAccessError, NotFoundError, PatternError } from '../errors';
import { featureNameMismatchMessage, matchesFeatureNaming } from '../projects/feature-naming';
import { parse } from '../validation';
import { countActiveFeaturesForLimit, loadProjectFeature } from './feature.store';
import {
  changeRequestEnvironment, configuredEnvironmentsOutside, dependencyLinks, foreignSegments, lockMoveProjects, moveFeatureRows,
} from './feature-move.store';

/** Unleash's body of `POST /api/admin/projects/:p/features/:f/changeProject`. */
export const moveSchema = z.object({ newProjectId: z.string().min(1).max(100) }).strict();

/**
 * Moving a feature to another project (Unleash's `changeProject`). The feature keeps its name, strategies, variants,
 * tags and state; it answers under the new project's paths and reaches the SDK tokens of the new project only.
 *
 * Refused, with nothing changed and no event:
 * - without MOVE_FEATURE_TOGGLE in the feature's project (checked first) and in the target project (403 NoAccessError);
 * - a feature that is not an active feature of the project in the path (archived ones included: 404, as every other
 *   edit of an archived feature), or an unknown target project (404 NotFoundError);
 * - when change requests are enabled in any environment of either project, for every caller (403 NoAccessError naming
 *   SKIP_CHANGE_REQUEST: Unleash refuses it too, since the move would carry configuration past the requests);
 * - a feature with dependencies, as parent or child (403 ForbiddenError, Unleash's answer: dependencies stay within a
 *   project);
 * - a name the target's naming pattern refuses (400 PatternError) or a target at its feature limit (403
 *   InvalidOperationError): the rules creating the feature there would apply;
 * - strategies using a segment of another project, or configuration (switched on, variants, strategies) in an
 *   environment the target has not added (409 ConflictError): the move would have to drop or break it.
 * Moving to the project the feature is in changes nothing and writes no event (Unleash would write one).
 *
 * On success: the feature's environments become the target's (unconfigured ones it lacks are dropped, missing ones
 * added switched off) and one event `feature-project-change` (project: the new one; data `{oldProject, newProject}`).
 * The project feature lists, health reports and SDK answers follow by themselves: their caches are keyed by the model
 * version every write moves.
 */
export class FeatureMoveService {
  constructor(
    private readonly em: EntityManager,
    private readonly principal: Principal,
    private readonly access: AccessService,
  ) {}

  async move(project: string, name: string, input: unknown): Promise<void> {
    const { newProjectId: target } = parse(moveSchema, input);
    await this.access.check('MOVE_FEATURE_TOGGLE', { project });
    if (target !== project && !(await this.access.allows('MOVE_FEATURE_TOGGLE', { project: target }))) {
      throw new NoAccessError('MOVE_FEATURE_TOGGLE', undefined,
        `You don't have the required permissions to move a feature into project "${target}": you need the "MOVE_FEATURE_TOGGLE" permission there.`);
    }
    await change(this.em, this.principal, async (tx, emit) => {
      // Lock order (rule 3 in change.ts): both projects, their environment links, then the feature.
      const projects = await lockMoveProjects(tx, [project, target]);
      const to = projects.find((p) => p.id === target);
      if (!to) throw new NotFoundError(`Project with id ${target} does not exist`);
      if (target !== project) {
        const guarded = await changeRequestEnvironment(tx, [project, target]);
        if (guarded) {
          throw new NoAccessError('SKIP_CHANGE_REQUEST', guarded.environment,
            `Changing project is not allowed: project "${guarded.project}" has change requests enabled (in the "${guarded.environment}" environment).`);
        }
      }
      // `for update`: the feature, and through it its strategies, variants and dependencies (every change of those
      // locks the feature first), stay as read here until the move commits. A second move of it waits, then finds it
      // gone from this project (404).
      await loadProjectFeature(tx, project, name, true);
      if (target === project) return;

      const links = await dependencyLinks(tx, name);
      if (links.length > 0) {
        const parents = links.filter((l) => l.child === name).map((l) => l.parent);
        const children = links.filter((l) => l.parent === name).map((l) => l.child);
        const what = [parents.length ? `it depends on ${parents.join(', ')}` : '', children.length ? `${children.join(', ')} depend${children.length === 1 ? 's' : ''} on it` : '']
          .filter(Boolean).join('; ');
        throw new ForbiddenError(`Changing project is not allowed: the feature ${name} has dependencies (${what}). Remove them first.`);
      }
      const naming = { pattern: to.feature_naming_pattern, example: to.feature_naming_example, description: to.feature_naming_description };
      if (naming.pattern && !matchesFeatureNaming(naming.pattern, name)) {
        throw new PatternError(`The feature ${name} cannot move to project "${target}": ${featureNameMismatchMessage(naming, name)}`);
      }
      const segments = await foreignSegments(tx, name, target);
      if (segments.length > 0) {
        throw new ConflictError(`The feature ${name} uses the segment ${segments[0].id} of project "${segments[0].project}", which cannot be used in project "${target}". Remove it from the feature's strategies first.`);
      }
      const outside = await configuredEnvironmentsOutside(tx, name, target);
      if (outside.length > 0) {
        throw new ConflictError(`The feature ${name} is configured in ${outside.map((e) => `"${e}"`).join(', ')}, which project "${target}" has not added. Add ${outside.length === 1 ? 'that environment' : 'those environments'} to project "${target}" first, or remove the configuration there.`);
      }
      if (to.feature_limit !== null && (await countActiveFeaturesForLimit(tx, target)) >= to.feature_limit) {
        throw new InvalidOperationError(`Project "${target}" has reached its maximum number of feature toggles (${to.feature_limit}).`);
      }
      await moveFeatureRows(tx, name, target);
      emit({ type: 'feature-project-change', project: target, featureName: name, data: { oldProject: project, newProject: target } });
    });
  }
}
