import { useAllowed } from '../data/session';
import type { PermissionName } from '../gql/graphql';

interface CanProps {
  /** Shown when the user holds this permission (or any of these) where it applies. */
  permission: PermissionName | readonly PermissionName[];
  project?: string;
  environment?: string;
  children: React.ReactNode;
}

/**
 * What only some users may do, shown to them alone, as the service decides (`me.allowed`): nothing until its answer
 * is in, so a control never appears and then vanishes.
 */
export function Can({ permission, project, environment, children }: CanProps) {
  const { can } = useAllowed(project, environment);
  const names = typeof permission === 'string' ? [permission] : permission;
  return names.some(can) ? <>{children}</> : null;
}
