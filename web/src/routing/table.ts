import type { PermissionName } from '../gql/graphql';

/**
 * Every page of the app, once: its path, its title, where the main navigation lists it and the root-level permission
 * that shows it there; its code is `PAGES` (`pages.ts`, keyed alike, so the type checker wants one for each page). The
 * router (`routes.tsx`), the navigation (`layout/navigation.ts`), the project's tabs and every link (`links.ts`) are
 * derived from this table. (The code is apart so that the table stays plain data that tests and the server's type
 * check read without the pages.)
 */

/** The main navigation's sections, in order; `main` has no heading. */
export const NAV_SECTIONS = ['main', 'Definitions', 'Administration', 'account'] as const;
export type NavSectionId = (typeof NAV_SECTIONS)[number];

export interface PageRoute {
  path: string;
  /** A path this one sends to (the `/` and `/admin` addresses). */
  redirect?: string;
  /** The document's title while the page is shown (before " · flagdeck"); a function of the path's parameters. */
  title: string | ((params: Readonly<Record<string, string | undefined>>) => string);
  /** `public`: shown without a session (signing in, invitation and reset links); otherwise inside the signed-in frame. */
  frame: 'public' | 'app';
  /** The entry of the main navigation, if the page has one. */
  nav?: { section: NavSectionId; label: string };
  /** The tab of a project's page row (`ProjectNav`), if the page is one of a project's. */
  projectTab?: string;
  /** Listed in the navigation only for a user holding one of these root-level permissions. */
  anyOf?: readonly PermissionName[];
}

const TOKENS: PermissionName[] = ['READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN', 'CREATE_CLIENT_API_TOKEN', 'CREATE_FRONTEND_API_TOKEN'];

/** Keyed by a name the link builders use; the order is the navigation's and, within a project, the tabs'. */
export const ROUTES = {
  login: { path: '/login', title: 'Sign in', frame: 'public' },
  newUser: { path: '/new-user', title: 'Set your password', frame: 'public' },
  resetPassword: { path: '/reset-password', title: 'Set your password', frame: 'public' },
  invite: { path: '/invite/:secret', title: 'Sign up', frame: 'public' },

  home: { path: '/', redirect: '/projects', title: 'Projects', frame: 'app' },
  projects: { path: '/projects', title: 'Projects', frame: 'app', nav: { section: 'main', label: 'Projects' } },
  flags: { path: '/flags', title: 'Flags', frame: 'app', nav: { section: 'main', label: 'Flags' } },
  project: { path: '/projects/:projectId', title: (p) => `${p.projectId} · Flags`, frame: 'app', projectTab: 'Flags' },
  flag: { path: '/projects/:projectId/features/:featureName', title: (p) => `${p.featureName}`, frame: 'app' },
  changeRequests: { path: '/projects/:projectId/change-requests', title: (p) => `${p.projectId} · Change requests`, frame: 'app', projectTab: 'Change requests' },
  changeRequest: { path: '/projects/:projectId/change-requests/:id', title: (p) => `Change request #${p.id}`, frame: 'app' },
  projectImport: { path: '/projects/:projectId/import', title: (p) => `${p.projectId} · Import`, frame: 'app', projectTab: 'Import' },
  projectAccess: { path: '/projects/:projectId/access', title: (p) => `${p.projectId} · Access`, frame: 'app', projectTab: 'Access' },
  projectSettings: { path: '/projects/:projectId/settings', title: (p) => `${p.projectId} · Settings`, frame: 'app', projectTab: 'Settings' },
  playground: { path: '/playground', title: 'Playground', frame: 'app', nav: { section: 'main', label: 'Playground' } },
  history: { path: '/history', title: 'Event log', frame: 'app', nav: { section: 'main', label: 'Event log' } },
  archive: { path: '/archive', title: 'Archive', frame: 'app', nav: { section: 'main', label: 'Archive' } },
  applications: { path: '/applications', title: 'Applications', frame: 'app', nav: { section: 'main', label: 'Applications' } },
  application: { path: '/applications/:appName', title: (p) => `${p.appName} · Applications`, frame: 'app' },
  unknownFlags: { path: '/unknown-flags', title: 'Unknown flags', frame: 'app', nav: { section: 'main', label: 'Unknown flags' } },

  environments: { path: '/admin/environments', title: 'Environments', frame: 'app', nav: { section: 'Definitions', label: 'Environments' } },
  contextFields: { path: '/admin/context-fields', title: 'Context fields', frame: 'app', nav: { section: 'Definitions', label: 'Context fields' } },
  segments: { path: '/admin/segments', title: 'Segments', frame: 'app', nav: { section: 'Definitions', label: 'Segments' } },
  strategies: { path: '/admin/strategies', title: 'Strategies', frame: 'app', nav: { section: 'Definitions', label: 'Strategies' } },
  tagTypes: { path: '/admin/tag-types', title: 'Tag types', frame: 'app', nav: { section: 'Definitions', label: 'Tag types' } },

  admin: { path: '/admin', redirect: '/admin/users', title: 'Users', frame: 'app' },
  users: { path: '/admin/users', title: 'Users', frame: 'app', nav: { section: 'Administration', label: 'Users' }, anyOf: ['ADMIN'] },
  groups: { path: '/admin/groups', title: 'Groups', frame: 'app', nav: { section: 'Administration', label: 'Groups' }, anyOf: ['ADMIN'] },
  roles: { path: '/admin/roles', title: 'Roles', frame: 'app', nav: { section: 'Administration', label: 'Roles' }, anyOf: ['ADMIN', 'READ_ROLE'] },
  signupLinks: { path: '/admin/signup-links', title: 'Signup links', frame: 'app', nav: { section: 'Administration', label: 'Signup links' }, anyOf: ['ADMIN'] },
  apiTokens: { path: '/admin/api-tokens', title: 'API tokens', frame: 'app', nav: { section: 'Administration', label: 'API tokens' }, anyOf: ['ADMIN', ...TOKENS] },
  addons: { path: '/admin/addons', title: 'Addons', frame: 'app', nav: { section: 'Administration', label: 'Addons' }, anyOf: ['ADMIN', 'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON'] },
  auth: { path: '/admin/auth', title: 'Single sign-on', frame: 'app', nav: { section: 'Administration', label: 'Single sign-on' }, anyOf: ['ADMIN'] },

  profile: { path: '/profile', title: 'Profile', frame: 'app', nav: { section: 'account', label: 'Profile' } },
  notFound: { path: '*', title: 'Page not found', frame: 'app' },
} as const satisfies Record<string, PageRoute>;

export type RouteName = keyof typeof ROUTES;
/** The routes whose page is loaded on demand: all but the redirects and the login page (which comes with the first route). */
export type LazyRouteName = Exclude<RouteName, 'login' | 'home' | 'admin'>;
