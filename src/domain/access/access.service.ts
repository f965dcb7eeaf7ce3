import type { EntityManager } from '@mikro-orm/postgresql';
import { NoAccessError } from '../errors';
import { ADMIN, PERMISSIONS } from './permissions';
import type { Principal } from './principal';
import { isAllowed, type Grant, type Scope } from './rbac';
import { heldPermissions } from './role.read-model';

/**
 * The one permission check every state-changing service method calls. Admin tokens pass without a query; for users
 * the grants are loaded once per request, in one statement, as the union of
 * - the root role's permissions (its project and environment permissions apply to the `default` project, as in
 *   Unleash), and the root roles of the user's groups likewise;
 * - the project roles the user holds in each project (`role_user`);
 * - the project roles the user's groups hold in each project (`group_role`).
 * An environment permission stored without an environment holds in every environment. Grants of root roles are
 * marked `root`: only they meet a check that names no project (rbac.ts).
 */
export class AccessService {
  private grants?: Promise<Grant[]>;

  constructor(private readonly em: EntityManager, private readonly principal: Principal) {}

  async check(permission: string, scope: Scope = {}): Promise<void> {
    if (this.principal.isAdmin) return;
    const grants = await this.granted();
    if (!isAllowed(grants, permission, scope)) throw new NoAccessError(permission, scope.environment);
  }

  /** Whether the caller holds `permission` in `scope`, without throwing. */
  async allows(permission: string, scope: Scope = {}): Promise<boolean> {
    if (this.principal.isAdmin) return true;
    return isAllowed(await this.granted(), permission, scope);
  }

  /**
   * The names of every permission the caller holds in `scope`, decided as `check` decides (ADMIN for an admin, which
   * passes every check): what a client may offer, read from the service rather than guessed from the grants.
   */
  async allowedIn(scope: Scope = {}): Promise<string[]> {
    const names = PERMISSIONS.map((d) => d.name);
    if (this.principal.isAdmin) return names;
    const grants = await this.granted();
    return names.filter((name) => isAllowed(grants, name, scope));
  }

  /** Every grant of the caller (GET /api/admin/user lists them). */
  granted(): Promise<Grant[]> {
    return (this.grants ??= this.loadGrants());
  }

  private async loadGrants(): Promise<Grant[]> {
    if (this.principal.isAdmin) return [{ permission: ADMIN, project: null, environment: null, root: true }];
    if (this.principal.kind !== 'user') return [];
    const rows = await heldPermissions(this.em, this.principal.rootRoleId, this.principal.userId);
    // A root permission in a project role would hold everywhere; roles are validated against that, and a row that
    // slipped past (written by hand or an older version) is not honoured.
    return rows.filter((r) => r.type !== 'root' || r.project === null).map((r) => ({
      permission: r.permission,
      project: r.type === 'root' ? null : r.project ?? 'default',
      environment: r.type === 'environment' ? r.environment || null : null,
      root: r.project === null,
    }));
  }
}
