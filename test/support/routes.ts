import type { Router } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from '../../src/app';
import { createLogger } from '../../src/logger';

export interface Route { method: string; path: string }

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] }; rawPath?: unknown };

/** Every route of the app, with its full path, from the router stack; and the paths where other handlers are mounted. */
function walk(stack: Layer[], prefix = '', routes: Route[] = [], mounts: string[] = []): { routes: Route[]; mounts: string[] } {
  for (const layer of stack) {
    const here = layer.rawPath === '/' || layer.rawPath === undefined ? prefix : `${prefix}${String(layer.rawPath)}`;
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods)) routes.push({ method: method.toUpperCase(), path: `${prefix}${layer.route.path}` });
    } else if (layer.handle?.stack) {
      walk(layer.handle.stack, here, routes, mounts);
    } else if (here !== prefix || prefix === '') {
      if (!mounts.includes(here)) mounts.push(here);
    }
  }
  return { routes, mounts };
}

/** The routes of the real app as Express holds them (tests derive their cases from this, so a new route is covered). */
export function appRoutes(orm: MikroORM): { routes: Route[]; mounts: string[] } {
  const express = buildApp({ orm, logger: createLogger('silent') }) as unknown as { router: Router & { stack: Layer[] } };
  return walk(express.router.stack);
}
