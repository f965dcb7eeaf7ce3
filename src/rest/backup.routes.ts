import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { services } from './context';
import { backupFileName } from './download';

/** GET /api/admin/backup: the embedded database, as a gzip'd tar streamed while it is compressed (ADMIN). */
export function backupRouter(): Router {
  const r = Router();
  r.get('/backup', async (req, res) => {
    const backup = await services(req).backups.take();
    const { manifest } = backup;
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename="${backupFileName(new Date(manifest.createdAt))}"`);
    res.setHeader('Cache-Control', 'no-store');
    // How long requests waited behind the copy, for whoever watches the backups' effect.
    res.setHeader('Server-Timing', `snapshot;dur=${backup.heldMs.toFixed(1)}`);
    req.log.info({ createdAt: manifest.createdAt, files: manifest.files.length, heldMs: Math.round(backup.heldMs) }, 'backup taken');
    // Once the first byte is sent an error can only cut the answer short: the client's check of the file finds that.
    await pipeline(backup.bytes, res).catch((err: Error) => req.log.warn({ err: err.message }, 'backup not sent whole'));
  });
  return r;
}
