import { Router } from 'express';
import type * as YamlModule from 'yaml';
import { ValidationError } from '../domain/errors';
import { exportFlag, STATE_EXPORT_FLAGS, type StateExportOptions } from '../domain/import-export/state-export.service';
import { services } from './context';
import { asDownload } from './download';

/**
 * Spec endpoint 16, the legacy state export (ADMIN). The section flags go to the service as sent; `format=yaml`
 * answers `text/yaml` (any other format JSON), and `download` (read like the flags, default false) adds a
 * Content-Disposition that saves it as a file. YAML is written by `yaml` (eemeli/yaml): maintained, dependency-free,
 * YAML 1.2 (so timestamps and `yes`/`no` stay strings when read back), and already in the tree through codegen. It is
 * loaded by the first YAML export, not at start (about a hundred milliseconds of start-up on a loaded machine).
 */
export function stateExportRouter(): Router {
  const r = Router();
  r.get('/state/export', async (req, res) => {
    const options: StateExportOptions = {};
    for (const flag of STATE_EXPORT_FLAGS) options[flag] = req.query[flag];
    const state = await services(req).stateExport.export(options);
    const format = req.query.format;
    if (format !== undefined && typeof format !== 'string') throw ValidationError.single('format', 'The `format` query parameter must be given once: yaml or json.');
    const download = exportFlag(req.query.download, false, 'download');
    const yaml = format === 'yaml';
    if (download) asDownload(res, yaml ? 'yml' : 'json');
    if (!yaml) {
      res.json(state);
      return;
    }
    // Objects that occur twice are written out twice, never as YAML anchors and aliases.
    const { stringify } = require('yaml') as typeof YamlModule;
    res.type('text/yaml').send(stringify(state, { aliasDuplicateObjects: false }));
  });
  return r;
}
