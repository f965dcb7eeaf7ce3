import { Router } from 'express';
import { services } from './context';

/**
 * Issue 12 part 9, preview before approving:
 * `POST /api/admin/projects/:projectId/change-requests/:id/preview` with `{contexts: [Client context, ...]}` (1 to 1000,
 * each validated as the playground validates its context; the 100 kB body limit applies) answers
 * ```
 * { id, project, environment,
 *   features: [{ name, project, reasons: ['change' | 'segment' | 'parent', ...],
 *                before: {enabled, strategies, variants, dependencies} | null,
 *                after:  {enabled, strategies, variants, dependencies} | null,
 *                results: [{ context, before: <Playground evaluation result> | null, after: <…> | null, changed }] }],
 *   changedCount,
 *   warnings: [{ changeId, action, feature, message }] }
 * ```
 * for every feature the request affects (named by a change, using a changed segment, or depending on one of those),
 * computed on an in-memory copy of the request's environment: nothing is written, no event. `before`/`after` null: the
 * feature is not active now / the request archives it. `changed`: `isEnabled` or the variant name differs.
 * `warnings`: changes the apply would refuse now, left out of `after`. 404 NotFoundError for an unknown request or one
 * of another project; 400 ValidationError for bad contexts or more than the playground's combination limit (features ×
 * contexts). Needs no permission beyond authentication, like the playground.
 */
export function changeRequestPreviewRouter(): Router {
  const r = Router();
  r.post('/projects/:projectId/change-requests/:id/preview', async (req, res) => {
    res.json(await services(req).changeRequestPreview.preview(req.params.projectId, req.params.id, req.body));
  });
  return r;
}
