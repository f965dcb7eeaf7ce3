/** Permission names and predefined roles, as Unleash v5.8 seeds them (reference §4). */

export type PermissionType = 'root' | 'project' | 'environment';

export interface PermissionDefinition {
  id: number;
  name: string;
  displayName: string;
  type: PermissionType;
}

export const ADMIN = 'ADMIN';
export const NONE = 'NONE';

const p = (id: number, name: string, type: PermissionType, displayName: string): PermissionDefinition => ({ id, name, type, displayName });

export const PERMISSIONS: readonly PermissionDefinition[] = [
  p(1, 'ADMIN', 'root', 'Admin'),
  p(2, 'CREATE_FEATURE', 'project', 'Create feature toggles'),
  p(3, 'CREATE_STRATEGY', 'root', 'Create activation strategies'),
  p(4, 'CREATE_ADDON', 'root', 'Create addons'),
  p(5, 'DELETE_ADDON', 'root', 'Delete addons'),
  p(6, 'UPDATE_ADDON', 'root', 'Update addons'),
  p(7, 'UPDATE_FEATURE', 'project', 'Update feature toggles'),
  p(8, 'DELETE_FEATURE', 'project', 'Delete feature toggles'),
  p(9, 'UPDATE_APPLICATION', 'root', 'Update applications'),
  p(10, 'UPDATE_TAG_TYPE', 'root', 'Update tag types'),
  p(11, 'DELETE_TAG_TYPE', 'root', 'Delete tag types'),
  p(12, 'CREATE_PROJECT', 'root', 'Create projects'),
  p(13, 'UPDATE_PROJECT', 'project', 'Update project'),
  p(14, 'DELETE_PROJECT', 'project', 'Delete project'),
  p(15, 'UPDATE_STRATEGY', 'root', 'Update strategies'),
  p(16, 'DELETE_STRATEGY', 'root', 'Delete strategies'),
  p(17, 'UPDATE_CONTEXT_FIELD', 'root', 'Update context fields'),
  p(18, 'CREATE_CONTEXT_FIELD', 'root', 'Create context fields'),
  p(19, 'DELETE_CONTEXT_FIELD', 'root', 'Delete context fields'),
  p(20, 'READ_ROLE', 'root', 'Read roles'),
  p(25, 'CREATE_FEATURE_STRATEGY', 'environment', 'Create activation strategies'),
  p(26, 'UPDATE_FEATURE_STRATEGY', 'environment', 'Update activation strategies'),
  p(27, 'DELETE_FEATURE_STRATEGY', 'environment', 'Delete activation strategies'),
  p(28, 'UPDATE_FEATURE_ENVIRONMENT', 'environment', 'Enable/disable toggles'),
  p(29, 'UPDATE_FEATURE_VARIANTS', 'project', 'Create/edit variants'),
  p(30, 'MOVE_FEATURE_TOGGLE', 'project', 'Change feature toggle project'),
  p(31, 'CREATE_SEGMENT', 'root', 'Create segments'),
  p(32, 'UPDATE_SEGMENT', 'root', 'Edit segments'),
  p(33, 'DELETE_SEGMENT', 'root', 'Delete segments'),
  p(35, 'APPROVE_CHANGE_REQUEST', 'environment', 'Approve/Reject change requests'),
  p(36, 'APPLY_CHANGE_REQUEST', 'environment', 'Apply change requests'),
  p(37, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'environment', 'Update variants'),
  p(38, 'SKIP_CHANGE_REQUEST', 'environment', 'Skip change request process'),
  p(42, 'READ_PROJECT_API_TOKEN', 'project', 'Read api tokens for a specific project'),
  p(43, 'CREATE_PROJECT_API_TOKEN', 'project', 'Create api tokens for a specific project'),
  p(44, 'DELETE_PROJECT_API_TOKEN', 'project', 'Delete api tokens for a specific project'),
  p(45, 'UPDATE_PROJECT_SEGMENT', 'project', 'Create/edit project segment'),
  p(50, 'CREATE_CLIENT_API_TOKEN', 'root', 'Create CLIENT API tokens'),
  p(51, 'UPDATE_CLIENT_API_TOKEN', 'root', 'Update CLIENT API tokens'),
  p(52, 'DELETE_CLIENT_API_TOKEN', 'root', 'Delete CLIENT API tokens'),
  p(53, 'READ_CLIENT_API_TOKEN', 'root', 'Read CLIENT API tokens'),
  p(54, 'CREATE_FRONTEND_API_TOKEN', 'root', 'Create FRONTEND API tokens'),
  p(55, 'UPDATE_FRONTEND_API_TOKEN', 'root', 'Update FRONTEND API tokens'),
  p(56, 'DELETE_FRONTEND_API_TOKEN', 'root', 'Delete FRONTEND API tokens'),
  p(57, 'READ_FRONTEND_API_TOKEN', 'root', 'Read FRONTEND API tokens'),
  p(58, 'UPDATE_FEATURE_DEPENDENCY', 'project', 'Update feature dependency'),
  p(59, 'CREATE_TAG_TYPE', 'root', 'Create tag types'),
];

export const PERMISSION_BY_NAME: ReadonlyMap<string, PermissionDefinition> = new Map(PERMISSIONS.map((d) => [d.name, d]));

const ENV_PERMISSIONS = ['CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS'];
const OWNER_PROJECT = ['CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_DEPENDENCY', 'MOVE_FEATURE_TOGGLE', 'UPDATE_PROJECT', 'DELETE_PROJECT', 'READ_PROJECT_API_TOKEN', 'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN'];

export interface RoleDefinition {
  id: number;
  name: string;
  type: 'root' | 'project';
  description: string;
  /** Permission names; environment permissions apply to every environment (stored with environment NULL). */
  permissions: string[];
}

export const ROLE_ADMIN = 1;
export const ROLE_EDITOR = 2;
export const ROLE_VIEWER = 3;
export const ROLE_OWNER = 4;
export const ROLE_MEMBER = 5;

export const PREDEFINED_ROLES: readonly RoleDefinition[] = [
  { id: ROLE_ADMIN, name: 'Admin', type: 'root', description: 'Users with the root admin role have superuser access to flagdeck and can perform any operation within it.', permissions: [ADMIN] },
  {
    id: ROLE_EDITOR, name: 'Editor', type: 'root',
    description: 'Users with the root editor role have access to most features in flagdeck, but can not manage users and roles in the root scope. Editors will be added as project owners when creating projects and get superuser rights within the context of these projects. Users with the editor role will also get access to most permissions on the default project by default.',
    permissions: [
      'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON', 'CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD',
      'CREATE_SEGMENT', 'UPDATE_SEGMENT', 'DELETE_SEGMENT', 'CREATE_STRATEGY', 'UPDATE_STRATEGY', 'DELETE_STRATEGY',
      'CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE', 'DELETE_TAG_TYPE', 'CREATE_PROJECT', 'UPDATE_APPLICATION', 'READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN',
      'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'UPDATE_FEATURE_VARIANTS', 'MOVE_FEATURE_TOGGLE', 'UPDATE_PROJECT', 'DELETE_PROJECT',
      'READ_PROJECT_API_TOKEN', 'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN',
      ...ENV_PERMISSIONS,
    ],
  },
  { id: ROLE_VIEWER, name: 'Viewer', type: 'root', description: 'Users with the root viewer role can only read root resources in flagdeck. Viewers can be added to specific projects as project members. Users with the viewer role may not view API tokens.', permissions: [] },
  { id: ROLE_OWNER, name: 'Owner', type: 'project', description: 'Users with the project owner role have full control over the project, and can add and manage other users within the project context, manage feature toggles within the project, and control advanced project features like archiving and deleting the project.', permissions: [...OWNER_PROJECT, ...ENV_PERMISSIONS] },
  {
    id: ROLE_MEMBER, name: 'Member', type: 'project',
    description: 'Users with the project member role are allowed to view, create, and update feature toggles within a project, but have limited permissions in regards to managing the project\'s user access and can not archive or delete the project.',
    permissions: [...OWNER_PROJECT.filter((n) => !['DELETE_PROJECT', 'MOVE_FEATURE_TOGGLE', 'UPDATE_PROJECT'].includes(n)), ...ENV_PERMISSIONS],
  },
];
