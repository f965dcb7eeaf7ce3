import { generatePath, type PathParam } from 'react-router';
import { ROUTES, type RouteName } from './table';

type PathOf<N extends RouteName> = (typeof ROUTES)[N]['path'];
/** The parameters a route's path names (`:projectId` …), each required; none for a path without any. */
type ParamsOf<N extends RouteName> = [PathParam<PathOf<N>>] extends [never] ? [] : [Record<PathParam<PathOf<N>>, string | number>];

/**
 * The address of a page of the route table: `href('flag', { projectId, featureName })`. Parameters are encoded (a flag
 * may be called `a/b`), and a path's parameters are checked by the type checker; `search` adds a query string.
 */
export function href<N extends RouteName>(name: N, ...[params]: ParamsOf<N>): string {
  const values = Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, String(v)]));
  return generatePath(ROUTES[name].path, values);
}

/** An address with its query string: the entries whose value is empty are left out. */
export function withSearch(path: string, search: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The links the pages use most, by what they point at. */
export const links = {
  project: (projectId: string) => href('project', { projectId }),
  flag: (projectId: string, featureName: string) => href('flag', { projectId, featureName }),
  /** A flag's History tab; with an event, at the version that event's change made (`#event-<id>`). */
  flagHistory: (projectId: string, featureName: string, eventId?: number) =>
    `${withSearch(href('flag', { projectId, featureName }), { tab: 'history' })}${eventId === undefined ? '' : `#event-${eventId}`}`,
  changeRequests: (projectId: string) => href('changeRequests', { projectId }),
  changeRequest: (projectId: string, id: number) => href('changeRequest', { projectId, id }),
  application: (appName: string) => href('application', { appName }),
  /** The Flags page, filtered (`project`, `lifecycle`, … as its address keeps them). */
  flags: (filters: Record<string, string | undefined> = {}) => withSearch(href('flags'), filters),
  /** The login page, coming back to `next` once signed in. */
  login: (next?: string) => withSearch(href('login'), { next }),
};
