import { ROUTES, type PageRoute, type RouteName } from './table';

/** What a matched route carries (`handle` in routes.tsx) and the parameters of the address. */
interface Match {
  handle?: unknown;
  params: Readonly<Record<string, string | undefined>>;
}

/** The document's title for the matched routes: the deepest page's title from the route table, then the app's name. */
export function documentTitle(matches: readonly Match[]): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const name = (matches[i]!.handle as { route?: RouteName } | undefined)?.route;
    if (!name) continue;
    const route: PageRoute = ROUTES[name];
    const title = typeof route.title === 'function' ? route.title(matches[i]!.params) : route.title;
    return `${title} · flagdeck`;
  }
  return 'flagdeck';
}
