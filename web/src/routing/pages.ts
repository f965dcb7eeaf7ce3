import type { ComponentType } from 'react';
import type { LazyRouteName } from './table';

/** A page's code, fetched the first time its route is visited (the first route stays small). */
export type Page = () => Promise<{ default: ComponentType }>;

/** The code of each page of the route table (`table.ts`), by route name. */
export const PAGES = {
  newUser: () => import('../pages/SetPasswordPage'),
  resetPassword: () => import('../pages/SetPasswordPage'),
  invite: () => import('../pages/InviteSignupPage'),
  projects: () => import('../pages/ProjectsPage'),
  flags: () => import('../pages/FlagsPage'),
  project: () => import('../pages/ProjectFlagsPage'),
  flag: () => import('../pages/FlagPage'),
  changeRequests: () => import('../pages/changes/ChangeRequestsPage'),
  changeRequest: () => import('../pages/changes/ChangeRequestPage'),
  projectImport: () => import('../pages/project/ImportPage'),
  projectAccess: () => import('../pages/project/ProjectAccessPage'),
  projectSettings: () => import('../pages/project/ProjectSettingsPage'),
  playground: () => import('../pages/PlaygroundPage'),
  history: () => import('../pages/EventLogPage'),
  archive: () => import('../pages/ArchivePage'),
  applications: () => import('../pages/ApplicationsPage'),
  application: () => import('../pages/ApplicationPage'),
  unknownFlags: () => import('../pages/UnknownFlagsPage'),
  environments: () => import('../pages/admin/EnvironmentsPage'),
  contextFields: () => import('../pages/admin/ContextFieldsPage'),
  segments: () => import('../pages/admin/SegmentsPage'),
  strategies: () => import('../pages/admin/StrategiesPage'),
  tagTypes: () => import('../pages/admin/TagTypesPage'),
  users: () => import('../pages/admin/UsersPage'),
  groups: () => import('../pages/admin/GroupsPage'),
  roles: () => import('../pages/admin/RolesPage'),
  signupLinks: () => import('../pages/admin/SignupLinksPage'),
  apiTokens: () => import('../pages/admin/ApiTokensPage'),
  addons: () => import('../pages/admin/AddonsPage'),
  auth: () => import('../pages/admin/AuthPage'),
  profile: () => import('../pages/ProfilePage'),
  notFound: () => import('../pages/NotFoundPage'),
} satisfies Record<LazyRouteName, Page>;
