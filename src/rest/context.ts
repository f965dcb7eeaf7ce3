import type { Request } from 'express';
import type { Services } from '../domain/services';

/** The per-request scope (design §4): set by the app before any route runs. */
export interface RequestScope {
  services: Services;
}

export function services(req: Request): Services {
  const scope = (req as Request & { scope?: RequestScope }).scope;
  if (!scope) throw new Error('request scope missing: route mounted outside the authenticated API');
  return scope.services;
}
