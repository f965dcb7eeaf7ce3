import type { IncomingMessage } from 'node:http';

/** What the router stack says of a request that has finished: its route pattern, or where it ended. */
export interface RouteTable {
  /** Each Express route (the object Express puts in `req.route`) and its full pattern, mount paths included. */
  patterns: WeakMap<object, string>;
  /** The full patterns without parameters (`/api/client/features`): a request path equal to one is that route. */
  statics: Set<string>;
  /** Paths where routers or handlers are mounted (`/api`, `/api/admin`, `/graphql`), longest first, parameters left out. */
  mounts: string[];
}

type Layer = { route?: { path: unknown }; handle?: { stack?: Layer[] }; rawPath?: unknown };

/** A pattern with no parameter, wildcard, optional part or group (Express 5 path syntax). */
const isStatic = (path: string) => !/[:*{}()]/.test(path);

/** Walks an Express router stack (Express 5 / router 2: `layer.route`, `layer.handle.stack`, `layer.rawPath`). */
export function routeTable(stack: Layer[]): RouteTable {
  const table: RouteTable = { patterns: new WeakMap(), statics: new Set(), mounts: [] };
  const walk = (layers: Layer[], prefix: string) => {
    for (const layer of layers) {
      if (layer.route) {
        if (typeof layer.route.path !== 'string') continue;
        const pattern = `${prefix}${layer.route.path}`;
        // A route reachable under two mount paths keeps the first (no route of this app is mounted twice).
        if (!table.patterns.has(layer.route)) table.patterns.set(layer.route, pattern);
        if (isStatic(pattern)) table.statics.add(pattern);
        continue;
      }
      const raw = layer.rawPath;
      if (raw !== undefined && typeof raw !== 'string') continue;
      const here = raw === undefined || raw === '/' ? prefix : `${prefix}${raw.replace(/\/$/, '')}`;
      if (here !== prefix && isStatic(here) && !table.mounts.includes(here)) table.mounts.push(here);
      if (layer.handle?.stack) walk(layer.handle.stack, here);
    }
  };
  walk(stack, '');
  table.mounts.sort((a, b) => b.length - a.length);
  return table;
}

/** The path of a request URL, without its query string. */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * The route label of a finished request, always one of a fixed set (never a path a caller typed):
 * - the pattern of the Express route that took it (`/api/admin/projects/:projectId/features`);
 * - else the pattern its path is exactly, for requests answered before any route (the SDK fast paths, a 401 of the door
 *   on `/api/client/features`);
 * - else the longest mount it falls under: the mount itself (`/graphql`) or `<mount>/*` (`/api/admin/*`: an unknown
 *   path there, or one refused by the door before routing);
 * - else `unmatched`.
 */
export function routeLabel(table: RouteTable, req: IncomingMessage & { route?: object; originalUrl?: string }): string {
  if (req.route) {
    const pattern = table.patterns.get(req.route);
    if (pattern !== undefined) return pattern;
  }
  const path = pathOf(req.originalUrl ?? req.url ?? '');
  if (table.statics.has(path)) return path;
  for (const mount of table.mounts) {
    if (path === mount) return mount;
    if (path.startsWith(mount) && path[mount.length] === '/') return `${mount}/*`;
  }
  return 'unmatched';
}
