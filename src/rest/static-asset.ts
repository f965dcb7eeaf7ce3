import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import accepts from 'accepts';
import type { Request, Response } from 'express';
import { appendVary } from './cors';
import { ifNoneMatchNames } from './sdk/etag';

/** A file served under a name that carries a digest of its bytes, so it can be cached for a year. */
export interface StaticAsset {
  type: string;
  body: Buffer;
  etag: string;
  /** Gzipped once, on first request by a client that takes gzip; or given by the build. */
  gzipped?: Promise<Buffer>;
}

const gzipAsync = promisify(gzip);

/** Answers with an immutable asset: 304 on a matching If-None-Match, gzip when the client takes it. */
export async function sendStaticAsset(req: Request, res: Response, asset: StaticAsset): Promise<void> {
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('ETag', asset.etag);
  appendVary(res, 'Accept-Encoding');
  if (ifNoneMatchNames(req.headers['if-none-match'], asset.etag)) {
    res.status(304).end();
    return;
  }
  const compress = accepts(req).encoding('gzip', 'identity') === 'gzip';
  const body = compress ? await (asset.gzipped ??= gzipAsync(asset.body)) : asset.body;
  if (compress) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
