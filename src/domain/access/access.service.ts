import type { EntityManager } from '@mikro-orm/postgresql';
import { NoAccessError } from '../errors';
import { ADMIN } from './permissions';
import type { Principal } from './principal';
import { isAllowed, type Grant, type Scope } from './rbac';

/**
 * The one permission check every state-changing service method calls. Admin tokens pass without a query;
 * for users the grants of their root role are loaded once per request (root roles' project permissions
 * apply to the `default` project, as in Unleash).
 */
export class AccessService {
  private grants?: Promise<Grant[]>;

  constructor(private readonly em: EntityManager, private readonly principal: Principal) {}

  async check(permission: string, scope: Scope = {}): Promise<void> {
    if (this.principal.isAdmin) return;
    const grants = await (this.grants ??= this.loadGrants());
    if (!isAllowed(grants, permission, scope)) throw new NoAccessError(permission, scope.environment);
  }

  private async loadGrants(): Promise<Grant[]> {
    if (this.principal.isAdmin) return [{ permission: ADMIN, project: null, environment: null }];
    if (this.principal.rootRoleId === null) return [];
    const rows: Array<{ permission: string; type: string; environment: string | null }> = await this.em.execute(
      `select rp.permission, p.type, rp.environment from role_permissions rp join permissions p on p.name = rp.permission where rp.role_id = ?`,
      [this.principal.rootRoleId],
    );
    return rows.map((r) => ({ permission: r.permission, project: r.type === 'root' ? null : 'default', environment: r.environment }));
  }
}
