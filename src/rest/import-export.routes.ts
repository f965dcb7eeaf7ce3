import { Router } from 'express';
import { services } from './context';
import { asDownload } from './download';

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
    if ((req.body as { downloadFile?: unknown }).downloadFile === true) asDownload(res, 'json');
    res.json(result);
  });
  return r;
}
