import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RouteError } from './components/RouteError';
import { LoginPage } from './pages/LoginPage';

/** A page loaded on demand: its code is fetched the first time its route is visited (the first route stays small). */
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy' | 'hydrateFallbackElement'> => ({
  lazy: async () => ({ Component: (await load()).default }),
  // What shows while the first page's code arrives (on a page opened directly).
  hydrateFallbackElement: <Center h="100vh"><Loader aria-label="Loading" /></Center>,
});

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage />, errorElement: <RouteError /> },
  // The links the service hands out: invitations (`?token=` from an admin, `?invite=` from a signup link) and resets.
  { path: '/new-user', ...page(() => import('./pages/SetPasswordPage')), errorElement: <RouteError /> },
  { path: '/reset-password', ...page(() => import('./pages/SetPasswordPage')), errorElement: <RouteError /> },
  { path: '/invite/:secret', ...page(() => import('./pages/InviteSignupPage')), errorElement: <RouteError /> },
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/projects" replace /> },
      { path: 'projects', ...page(() => import('./pages/ProjectsPage')) },
      { path: 'projects/:projectId', ...page(() => import('./pages/ProjectFlagsPage')) },
      { path: 'projects/:projectId/features/:featureName', ...page(() => import('./pages/FlagPage')) },
      { path: 'projects/:projectId/change-requests', ...page(() => import('./pages/changes/ChangeRequestsPage')) },
      { path: 'projects/:projectId/change-requests/:id', ...page(() => import('./pages/changes/ChangeRequestPage')) },
      { path: 'projects/:projectId/settings', ...page(() => import('./pages/project/ProjectSettingsPage')) },
      { path: 'projects/:projectId/access', ...page(() => import('./pages/project/ProjectAccessPage')) },
      { path: 'projects/:projectId/import', ...page(() => import('./pages/project/ImportPage')) },
      { path: 'playground', ...page(() => import('./pages/PlaygroundPage')) },
      { path: 'history', ...page(() => import('./pages/EventLogPage')) },
      { path: 'archive', ...page(() => import('./pages/ArchivePage')) },
      { path: 'applications', ...page(() => import('./pages/ApplicationsPage')) },
      { path: 'applications/:appName', ...page(() => import('./pages/ApplicationPage')) },
      { path: 'profile', ...page(() => import('./pages/ProfilePage')) },
      { path: 'admin', element: <Navigate to="/admin/users" replace /> },
      { path: 'admin/users', ...page(() => import('./pages/admin/UsersPage')) },
      { path: 'admin/groups', ...page(() => import('./pages/admin/GroupsPage')) },
      { path: 'admin/roles', ...page(() => import('./pages/admin/RolesPage')) },
      { path: 'admin/signup-links', ...page(() => import('./pages/admin/SignupLinksPage')) },
      { path: 'admin/api-tokens', ...page(() => import('./pages/admin/ApiTokensPage')) },
      { path: 'admin/addons', ...page(() => import('./pages/admin/AddonsPage')) },
      { path: 'admin/auth', ...page(() => import('./pages/admin/AuthPage')) },
      { path: 'admin/environments', ...page(() => import('./pages/admin/EnvironmentsPage')) },
      { path: 'admin/context-fields', ...page(() => import('./pages/admin/ContextFieldsPage')) },
      { path: 'admin/segments', ...page(() => import('./pages/admin/SegmentsPage')) },
      { path: 'admin/strategies', ...page(() => import('./pages/admin/StrategiesPage')) },
      { path: 'admin/tag-types', ...page(() => import('./pages/admin/TagTypesPage')) },
      { path: '*', ...page(() => import('./pages/NotFoundPage')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
