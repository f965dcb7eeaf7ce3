import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { NoAccessError } from '../errors';
import { firstChangeRequestEnvironment, lockChangeRequestEnvironments } from './change-request-config.store';

/**
 * Enforcement of change requests (issue 12): while change requests are enabled for an environment of a project, a
 * direct change to a feature in that environment (enable/disable, strategies, variants) is refused with 403
 * NoAccessError naming SKIP_CHANGE_REQUEST, unless the caller holds that permission there. A change that is not tied
 * to one environment (archive, dependencies, cloning into the project) is refused when any environment of the project
 * has change requests enabled and the caller cannot skip them there.
 *
 * `environments`: the one or several environments the change touches; absent, every environment of the project.
 *
 * Called first in the change's transaction: the settings are read `for share`, so a configuration change (which
 * updates the same row) waits for this change to finish, or this change sees the new setting. Admins hold every
 * permission, SKIP_CHANGE_REQUEST included, and skip the read.
 */
export async function refuseWithoutChangeRequest(tx: EntityManager, principal: Principal, access: AccessService, project: string, environments?: string | readonly string[]): Promise<void> {
  if (principal.isAdmin) return;
  const only = environments === undefined ? undefined : typeof environments === 'string' ? [environments] : environments;
  const enabled = await lockChangeRequestEnvironments(tx, project, only);
  for (const env of enabled) {
    if (await access.allows('SKIP_CHANGE_REQUEST', { project, environment: env })) continue;
    throw new NoAccessError('SKIP_CHANGE_REQUEST', env,
      `Change requests are enabled for the "${env}" environment of project "${project}": make this change through a change request, or ask for the "SKIP_CHANGE_REQUEST" permission in the "${env}" environment.`);
  }
}

/**
 * Cloning into a project with change requests enabled in any environment is refused for everyone (as Unleash does):
 * the copy would carry strategies into those environments without a request.
 */
export async function refuseCloneIntoChangeRequestProject(tx: EntityManager, project: string): Promise<void> {
  const environment = await firstChangeRequestEnvironment(tx, project);
  if (environment !== undefined) {
    throw new NoAccessError('SKIP_CHANGE_REQUEST', environment,
      `Cloning is not allowed into project "${project}": it has change requests enabled (in the "${environment}" environment).`);
  }
}
