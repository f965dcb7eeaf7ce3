import type { Response } from 'express';

/** `YYYY-MM-dd_HH-mm-ss` in UTC: the time in a downloaded file's name. */
const fileStamp = (at: Date) => at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');

/** `export-YYYY-MM-dd_HH-mm-ss.<extension>` in UTC: the name Unleash gives a downloaded export. */
export function exportFileName(now: Date, extension: 'json' | 'yml'): string {
  return `export-${fileStamp(now)}.${extension}`;
}

/** `flagdeck-YYYY-MM-dd_HH-mm-ss.backup`: what a browser saves a backup as (the backup command names its own file). */
export function backupFileName(createdAt: Date): string {
  return `flagdeck-${fileStamp(createdAt)}.backup`;
}

/** Makes the answer save as an export file (both the batch export and the legacy state export). */
export function asDownload(res: Response, extension: 'json' | 'yml'): void {
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(new Date(), extension)}"`);
}
