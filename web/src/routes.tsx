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
      { path: 'playground', ...page(() => import('./pages/PlaygroundPage')) },
      { path: 'history', ...page(() => import('./pages/EventLogPage')) },
      { path: '*', ...page(() => import('./pages/NotFoundPage')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
