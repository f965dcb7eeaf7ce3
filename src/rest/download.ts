import type { Response } from 'express';

/** `export-YYYY-MM-dd_HH-mm-ss.<extension>` in UTC: the name Unleash gives a downloaded export. */
export function exportFileName(now: Date, extension: 'json' | 'yml'): string {
  return `export-${now.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-')}.${extension}`;
}

/** Makes the answer save as an export file (both the batch export and the legacy state export). */
export function asDownload(res: Response, extension: 'json' | 'yml'): void {
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(new Date(), extension)}"`);
}
