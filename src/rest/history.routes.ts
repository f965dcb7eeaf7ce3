import { Router, type Request } from 'express';
import { ValidationError } from '../domain/errors';
import { serializeAnswer } from './sdk/client-answers';
import { narrowScope, one, segmentMode } from './sdk/client-features.routes';
import { renderToggles } from './sdk/frontend.routes';
import { services } from './context';

type Params = { projectId: string; featureName: string };
const params = (req: Request) => req.params as unknown as Params;
const featurePath = '/projects/:projectId/features/:featureName';

/** `projects=a,b` (or `*`, or absent: every project) as a token's project list. */
function projectsParam(req: Request): string[] | '*' {
  const raw = one(req.query, 'projects');
  if (raw === undefined || raw === '*') return '*';
  const list = raw.split(',').map((p) => p.trim()).filter(Boolean);
  if (list.length === 0) throw ValidationError.single('projects', '`projects` names projects, separated by commas, or is `*`.');
  return list;
}

/**
 * The past (issue 43): a flag's versions and diffs, and what SDKs were served at an instant, in the bytes they were
 * served (the client answer is serialized by the code that serializes the live one). `GET …/features/:name?at=` is in
 * features.routes.ts, beside the path it is a variant of.
 */
export function historyRouter(): Router {
  const r = Router();
  r.get(`${featurePath}/versions`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json({ versions: await services(req).history.versions(projectId, featureName, req.query) });
  });
  r.post(`${featurePath}/revert`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(await services(req).reverts.revert(projectId, featureName, req.body));
  });
  r.post('/events/:id/revert', async (req, res) => {
    res.json(await services(req).reverts.revertEvent(req.params.id as string));
  });
  r.get(`${featurePath}/diff`, async (req, res) => {
    const { projectId, featureName } = params(req);
    const [diff] = await services(req).history.diff(projectId, featureName, req.query);
    res.json({ diff: diff?.diff ?? [] });
  });
  r.get('/projects/:projectId/diff', async (req, res) => {
    res.json({ features: await services(req).history.diff(params(req).projectId, undefined, req.query) });
  });
  r.get('/history/client-features', async (req, res) => {
    const environment = one(req.query, 'environment');
    if (environment === undefined) throw ValidationError.single('environment', '`environment` is required: the environment of the token whose answer you want.');
    const key = { scope: narrowScope(req.query, environment, projectsParam(req)), mode: segmentMode(req.headers['unleash-client-spec']) };
    const snapshot = await services(req).history.clientFeaturesAt(key.scope, req.query);
    res.type('application/json').send(serializeAnswer(snapshot, key).body);
  });
  r.post('/history/frontend', async (req, res) => {
    res.type('application/json').send(renderToggles(await services(req).history.frontendAt(req.body)));
  });
  return r;
}
