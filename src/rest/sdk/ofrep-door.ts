import type { NextFunction, Request, Response } from 'express';
import type { SdkDoorRule } from './sdk-deps';

/** The credentials the OFREP door accepts (server-side OpenFeature SDKs hold client tokens, browsers frontend ones). */
export const OFREP_DOOR: SdkDoorRule = { accepted: ['frontend', 'client', 'admin'], name: 'OpenFeature remote evaluation API', credentialDoor: 'frontend' };

/**
 * OFREP providers send their key as `X-API-Key` (or as a bearer token, which the authenticator takes already): read as
 * the `Authorization` header when that is absent, so every door checks one header.
 */
export function apiKeyAsAuthorization(req: Request, _res: Response, next: NextFunction): void {
  const key = req.headers['x-api-key'];
  if (req.headers.authorization === undefined && typeof key === 'string') req.headers.authorization = key;
  next();
}
