import { Router } from 'express';
import { services } from './context';

/** `YYYY-MM-dd_HH-mm-ss` in UTC: the time part of an export's file name. */
export const fileStamp = (d: Date) => d.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');

/** Batch export, import validation and import (spec endpoint 15; bodies up to IMPORT_BODY_LIMIT, see app.ts). */
export function importExportRouter(): Router {
  const r = Router();
  r.post('/features-batch/validate', async (req, res) => {
    res.json(await services(req).importExport.validate(req.body));
  });
  r.post('/features-batch/import', async (req, res) => {
    res.json(await services(req).importExport.import(req.body));
  });
  r.post('/features-batch/export', async (req, res) => {
    const result = await services(req).importExport.export(req.body);
    if ((req.body as { downloadFile?: unknown }).downloadFile === true) res.setHeader('Content-Disposition', `attachment; filename="export-${fileStamp(new Date())}.json"`);
    res.json(result);
  });
  return r;
}
