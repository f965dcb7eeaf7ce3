import { Router, type Request } from 'express';
import { services } from './context';
import { featureListBody } from './project-overview.bodies';

const featurePath = '/projects/:projectId/features/:featureName';
const envPath = `${featurePath}/environments/:environment`;

type Params = { projectId: string; featureName: string; environment: string; strategyId: string };
const params = (req: Request) => req.params as unknown as Params;

/** Features, their environments, strategies, variants, tags, dependencies and the archive (Unleash's paths). */
export function featuresRouter(): Router {
  const r = Router();

  // Features of a project
  r.get('/projects/:projectId/features', async (req, res) => {
    res.type('application/json').send(featureListBody(await services(req).features.projectOverview(params(req).projectId)));
  });
  r.post('/projects/:projectId/features', async (req, res) => {
    res.status(201).json(await services(req).features.create(params(req).projectId, req.body));
  });
  r.get(featurePath, async (req, res) => {
    const { projectId, featureName } = params(req);
    // `?at=` / `?revision=`: the flag as it was (issue 43).
    if (req.query.at !== undefined || req.query.revision !== undefined) {
      res.json(await services(req).history.featureAt(projectId, featureName, req.query));
      return;
    }
    res.json(await services(req).features.getProjectFeature(projectId, featureName));
  });
  r.put(featurePath, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(await services(req).features.update(projectId, featureName, req.body));
  });
  r.patch(featurePath, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json(await services(req).features.patch(projectId, featureName, req.body));
  });
  r.delete(featurePath, async (req, res) => {
    const { projectId, featureName } = params(req);
    await services(req).features.archive(projectId, featureName);
    res.status(202).end();
  });
  r.post(`${featurePath}/clone`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.status(201).json(await services(req).features.clone(projectId, featureName, req.body));
  });
  r.post(`${featurePath}/changeProject`, async (req, res) => {
    const { projectId, featureName } = params(req);
    await services(req).featureMoves.move(projectId, featureName, req.body);
    res.status(200).end();
  });
  r.post('/projects/:projectId/stale', async (req, res) => {
    await services(req).features.setStaleMany(params(req).projectId, req.body);
    res.status(202).end();
  });
  r.post('/projects/:projectId/archive', async (req, res) => {
    await services(req).features.archiveMany(params(req).projectId, req.body);
    res.status(202).end();
  });
  r.post('/projects/:projectId/revive', async (req, res) => {
    await services(req).features.reviveMany(params(req).projectId, req.body);
    res.status(200).end();
  });
  r.post('/projects/:projectId/delete', async (req, res) => {
    await services(req).features.deleteMany(params(req).projectId, req.body);
    res.status(200).end();
  });

  // Feature-wide operations outside a project path
  r.post('/features/validate', async (req, res) => {
    await services(req).features.validateName(req.body);
    res.status(200).end();
  });
  r.post('/features/:featureName/stale/on', async (req, res) => {
    res.json(await services(req).features.setStale(params(req).featureName, true));
  });
  r.post('/features/:featureName/stale/off', async (req, res) => {
    res.json(await services(req).features.setStale(params(req).featureName, false));
  });
  r.get('/feature-types', async (req, res) => {
    res.json({ version: 1, types: await services(req).features.featureTypes() });
  });
  r.put('/feature-types/:id/lifetimes', async (req, res) => {
    res.json(await services(req).features.updateFeatureTypeLifetime(String(req.params.id), req.body));
  });

  // Tags
  r.get('/features/:featureName/tags', async (req, res) => {
    res.json({ version: 1, tags: await services(req).features.tags(params(req).featureName) });
  });
  r.post('/features/:featureName/tags', async (req, res) => {
    res.status(201).json(await services(req).features.addTag(params(req).featureName, req.body));
  });
  r.delete('/features/:featureName/tags/:type/:value', async (req, res) => {
    await services(req).features.removeTag(params(req).featureName, String(req.params.type), String(req.params.value));
    res.status(200).end();
  });

  // Environments
  r.get(envPath, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json(await services(req).featureStrategies.environment(projectId, featureName, environment));
  });
  r.post(`${envPath}/on`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    await services(req).featureStrategies.setEnabled(projectId, featureName, environment, true, req.body);
    res.status(200).end();
  });
  r.post(`${envPath}/off`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    await services(req).featureStrategies.setEnabled(projectId, featureName, environment, false, req.body);
    res.status(200).end();
  });

  // Strategies
  r.get(`${envPath}/strategies`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json(await services(req).featureStrategies.list(projectId, featureName, environment));
  });
  r.post(`${envPath}/strategies`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json(await services(req).featureStrategies.add(projectId, featureName, environment, req.body));
  });
  r.post(`${envPath}/strategies/set-sort-order`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    await services(req).featureStrategies.setSortOrder(projectId, featureName, environment, req.body);
    res.status(200).end();
  });
  r.get(`${envPath}/strategies/:strategyId`, async (req, res) => {
    const { projectId, featureName, environment, strategyId } = params(req);
    res.json(await services(req).featureStrategies.get(projectId, featureName, environment, strategyId));
  });
  r.put(`${envPath}/strategies/:strategyId`, async (req, res) => {
    const { projectId, featureName, environment, strategyId } = params(req);
    res.json(await services(req).featureStrategies.update(projectId, featureName, environment, strategyId, req.body));
  });
  r.patch(`${envPath}/strategies/:strategyId`, async (req, res) => {
    const { projectId, featureName, environment, strategyId } = params(req);
    res.json(await services(req).featureStrategies.patch(projectId, featureName, environment, strategyId, req.body));
  });
  r.delete(`${envPath}/strategies/:strategyId`, async (req, res) => {
    const { projectId, featureName, environment, strategyId } = params(req);
    await services(req).featureStrategies.remove(projectId, featureName, environment, strategyId);
    res.status(200).end();
  });

  // Variants
  r.get(`${envPath}/variants`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.environmentVariants(projectId, featureName, environment) });
  });
  r.put(`${envPath}/variants`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.setEnvironmentVariants(projectId, featureName, environment, req.body) });
  });
  r.patch(`${envPath}/variants`, async (req, res) => {
    const { projectId, featureName, environment } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.patchEnvironmentVariants(projectId, featureName, environment, req.body) });
  });
  r.put(`${featurePath}/variants-batch`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.setVariantsInEnvironments(projectId, featureName, req.body) });
  });
  r.get(`${featurePath}/variants`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json({ version: 1, variants: (await services(req).features.getProjectFeature(projectId, featureName)).variants });
  });
  r.put(`${featurePath}/variants`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.setFeatureVariants(projectId, featureName, req.body) });
  });
  r.patch(`${featurePath}/variants`, async (req, res) => {
    const { projectId, featureName } = params(req);
    res.json({ version: 1, variants: await services(req).featureStrategies.setFeatureVariants(projectId, featureName, req.body, true) });
  });

  // Dependencies
  r.post(`${featurePath}/dependencies`, async (req, res) => {
    const { projectId, featureName } = params(req);
    await services(req).features.addDependency(projectId, featureName, req.body);
    res.status(200).end();
  });
  r.delete(`${featurePath}/dependencies/:parent`, async (req, res) => {
    const { projectId, featureName } = params(req);
    await services(req).features.removeDependency(projectId, featureName, String(req.params.parent));
    res.status(200).end();
  });
  r.delete(`${featurePath}/dependencies`, async (req, res) => {
    const { projectId, featureName } = params(req);
    await services(req).features.removeDependencies(projectId, featureName);
    res.status(200).end();
  });

  // Archive (spec endpoint 6: version 2)
  r.get('/archive/features', async (req, res) => {
    res.json({ version: 2, features: await services(req).features.listArchived() });
  });
  r.get('/archive/features/:projectId', async (req, res) => {
    res.json({ version: 2, features: await services(req).features.listArchived(params(req).projectId) });
  });
  r.post('/archive/revive/:featureName', async (req, res) => {
    await services(req).features.revive(params(req).featureName);
    res.status(200).end();
  });
  r.delete('/archive/:featureName', async (req, res) => {
    await services(req).features.deleteArchived(params(req).featureName);
    res.status(200).end();
  });
  return r;
}
