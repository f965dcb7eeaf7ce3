import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/AppLayout';
import { RouteError } from './components/RouteError';
import { LoginPage } from './pages/LoginPage';
import { PAGES } from './routing/pages';
import { ROUTES, type LazyRouteName, type PageRoute, type RouteName } from './routing/table';
import { documentTitle } from './routing/title';

/** The route object of a page of the route table, with its code from PAGES. */
function routeOf(name: RouteName, route: PageRoute, nested: boolean): RouteObject {
  const path = nested && route.path !== '/' ? route.path.slice(1) : route.path;
  const handle = { route: name };
  if (route.redirect) return { ...(route.path === '/' ? { index: true } : { path }), element: <Navigate to={route.redirect} replace />, handle };
  // The login page is the one most often opened first without a session: it comes with the first route.
  if (name === 'login') return { path, element: <LoginPage />, handle };
  const load = PAGES[name as LazyRouteName];
  return {
    path,
    handle,
    lazy: async () => ({ Component: (await load()).default }),
    // What shows while the first page's code arrives (on a page opened directly).
    hydrateFallbackElement: <Center h="100vh"><Loader aria-label="Loading" /></Center>,
  };
}

const entries = Object.entries(ROUTES) as Array<[RouteName, PageRoute]>;

export const routes: RouteObject[] = [
  // The pages without a session: signing in, and the links the service hands out (invitations and resets).
  ...entries.filter(([, r]) => r.frame === 'public').map(([name, r]) => ({ ...routeOf(name, r, false), errorElement: <RouteError /> })),
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: entries.filter(([, r]) => r.frame === 'app').map(([name, r]) => routeOf(name, r, true)),
  },
];

export const router = createBrowserRouter(routes);

// Each page's title (the route table's) names the tab and is what a screen reader announces first.
document.title = documentTitle(router.state.matches);
router.subscribe((state) => { document.title = documentTitle(state.matches); });
