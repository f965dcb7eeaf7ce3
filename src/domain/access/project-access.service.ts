import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { change } from '../change';
import { NotFoundError, ProjectWithoutOwnerError, ValidationError } from '../errors';
import { parse } from '../validation';
import type { AccessService } from './access.service';
import type { Principal } from './principal';
import { readProjectAccess } from './project-access.read-model';
import type { ProjectAccess } from './project-access.shapes';
import {
  addGroupRoles, addUserRoles, countOwners, loadAccessProject, replaceRoles, shareHolders, shareProjectRoles, type Holder,
} from './project-access.store';

const id = z.number().int().min(1).max(2_147_483_647);
const ref = z.union([id, z.object({ id }).strict()]).transform((v) => (typeof v === 'number' ? v : v.id));
export const addSchema = z.object({
  roles: z.array(ref).min(1).max(100),
  users: z.array(ref).max(1000).default([]),
  groups: z.array(ref).max(1000).default([]),
}).strict();
export const rolesSchema = z.object({ roles: z.array(ref).max(100) }).strict();

/** The events of a change of one holder's roles. */
const HOLDER = {
  user: { updated: 'project-access-user-roles-updated', deleted: 'project-access-user-roles-deleted' },
  group: { updated: 'project-access-group-roles-updated', deleted: 'project-access-group-roles-deleted' },
} as const;

const positiveId = (value: string, what: string): number => {
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new NotFoundError(`Could not find ${what} with id ${value}.`);
  return n;
};

/**
 * Who holds which project roles in a project (issue 9, spec endpoint 13): users directly and through groups. Changes
 * need UPDATE_PROJECT in the project. Each change locks the project row first, so concurrent changes of one project's
 * access take turns, and a change that would leave a project that had an Owner without one is refused.
 */
export class ProjectAccessService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  async get(project: string): Promise<ProjectAccess> {
    await loadAccessProject(this.em, project);
    return readProjectAccess(this.em, project);
  }

  /** POST /api/admin/projects/:p/access: every listed role to every listed user and group (roles already held stay). */
  async add(project: string, input: unknown): Promise<void> {
    const data = parse(addSchema, input);
    if (data.users.length === 0 && data.groups.length === 0) throw ValidationError.single('users', 'Name at least one user or group to give the roles to.');
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await loadAccessProject(tx, project, 'no key update');
      await this.checkRoles(tx, data.roles, 'roles');
      await this.checkHolders(tx, 'user', data.users, 'users');
      await this.checkHolders(tx, 'group', data.groups, 'groups');
      const createdBy = this.principal.name;
      if (data.users.length) await addUserRoles(tx, project, data.roles, data.users);
      if (data.groups.length) await addGroupRoles(tx, project, data.roles, data.groups, createdBy);
      emit({ type: 'project-access-added', project, data: { roles: data.roles, users: data.users, groups: data.groups } });
    });
  }

  /** Replaces the project roles of one user or group (an empty list removes them all). */
  async setRoles(project: string, holder: Holder, holderId: string, input: unknown): Promise<void> {
    const { roles } = parse(rolesSchema, input);
    const idNumber = positiveId(holderId, holder);
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await loadAccessProject(tx, project, 'no key update');
      await this.checkHolders(tx, holder, [idNumber], holder === 'user' ? 'userId' : 'groupId', true);
      await this.checkRoles(tx, roles, 'roles');
      const owners = await countOwners(tx, project);
      const before = await replaceRoles(tx, project, holder, idNumber, roles);
      await this.keepOwner(tx, project, owners);
      if (before.join() !== [...new Set(roles)].sort((a, b) => a - b).join()) {
        emit({ type: roles.length ? HOLDER[holder].updated : HOLDER[holder].deleted, project, data: { [`${holder}Id`]: idNumber, roles: [...new Set(roles)] }, preData: { [`${holder}Id`]: idNumber, roles: before } });
      }
    });
  }

  async removeRoles(project: string, holder: Holder, holderId: string): Promise<void> {
    const idNumber = positiveId(holderId, holder);
    await this.access.check('UPDATE_PROJECT', { project });
    await change(this.em, this.principal, async (tx, emit) => {
      await loadAccessProject(tx, project, 'no key update');
      await this.checkHolders(tx, holder, [idNumber], holder === 'user' ? 'userId' : 'groupId', true);
      const owners = await countOwners(tx, project);
      const before = await replaceRoles(tx, project, holder, idNumber, []);
      await this.keepOwner(tx, project, owners);
      if (before.length) emit({ type: HOLDER[holder].deleted, project, data: null, preData: { [`${holder}Id`]: idNumber, roles: before } });
    });
  }

  /** A project that had an Owner keeps one (Unleash refuses removing the last owner too). */
  private async keepOwner(tx: EntityManager, project: string, before: number): Promise<void> {
    if (before > 0 && (await countOwners(tx, project)) === 0) {
      throw new ProjectWithoutOwnerError('A project must have at least one owner: give the Owner role to someone else first.');
    }
  }

  private async checkRoles(tx: EntityManager, roles: number[], path: string): Promise<void> {
    if (roles.length === 0) return;
    const known = await shareProjectRoles(tx, roles);
    const bad = roles.findIndex((r) => !known.has(r));
    if (bad >= 0) throw ValidationError.single(`${path}/${bad}`, `Role ${roles[bad]} is not a project role: give Owner, Member or a custom project role.`);
  }

  private async checkHolders(tx: EntityManager, holder: Holder, ids: number[], path: string, single = false): Promise<void> {
    if (ids.length === 0) return;
    const known = await shareHolders(tx, holder, ids);
    const bad = ids.findIndex((i) => !known.has(i));
    if (bad < 0) return;
    if (single) throw new NotFoundError(`Could not find ${holder} with id ${ids[bad]}.`);
    throw ValidationError.single(`${path}/${bad}`, `There is no ${holder} with id ${ids[bad]}.`);
  }
}
