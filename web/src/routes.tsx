import { Center, Loader } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RouteError } from './components/RouteError';
import { LoginPage } from './pages/LoginPage';
import { PAGES } from './routing/pages';
import { PREFETCH } from './routing/prefetch';
import { ROUTES, type LazyRouteName, type PageRoute, type RouteName } from './routing/table';
import { documentTitle } from './routing/title';

/** The route object of a page of the route table, with its code from PAGES and what it reads first from PREFETCH. */
function routeOf(name: RouteName, route: PageRoute, nested: boolean, client: QueryClient): RouteObject {
  const path = nested && route.path !== '/' ? route.path.slice(1) : route.path;
  const handle = { route: name };
  if (route.redirect) return { ...(route.path === '/' ? { index: true } : { path }), element: <Navigate to={route.redirect} replace />, handle };
  // The login page is the one most often opened first without a session: it comes with the first route.
  if (name === 'login') return { path, element: <LoginPage />, handle };
  const load = PAGES[name as LazyRouteName];
  const prefetch = PREFETCH[name as LazyRouteName];
  return {
    path,
    handle,
    lazy: async () => ({ Component: (await load()).default }),
    // Started, not awaited: the page renders as soon as its code is here, and its hooks find the requests under way.
    // A failure is the page's to show, when its own hook asks.
    ...(prefetch && {
      loader: ({ params, request }) => { void prefetch(client, params, new URL(request.url).searchParams).catch(() => undefined); return null; },
      shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
    } satisfies Partial<RouteObject>),
    // What shows while the first page's code arrives (on a page opened directly).
    hydrateFallbackElement: <Center h="100vh"><Loader aria-label="Loading" /></Center>,
  };
}

const entries = Object.entries(ROUTES) as Array<[RouteName, PageRoute]>;

/** The app's routes; `client` is the query cache the routes' prefetches fill. */
export const routesOf = (client: QueryClient): RouteObject[] => [
  // The pages without a session: signing in, and the links the service hands out (invitations and resets).
  ...entries.filter(([, r]) => r.frame === 'public').map(([name, r]) => ({ ...routeOf(name, r, false, client), errorElement: <RouteError /> })),
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: entries.filter(([, r]) => r.frame === 'app').map(([name, r]) => routeOf(name, r, true, client)),
  },
];

/** The browser's router, each page's title (the route table's) naming the tab: what a screen reader announces first. */
export function createAppRouter(client: QueryClient) {
  const router = createBrowserRouter(routesOf(client));
  document.title = documentTitle(router.state.matches);
  router.subscribe((state) => { document.title = documentTitle(state.matches); });
  return router;
}
