import { Router } from 'express';
import { services } from './context';

/** Users, the caller, personal access tokens and API tokens (issue 9). */
export function usersRouter(): Router {
  const r = Router();
  r.get('/user-admin', async (req, res) => {
    res.json({ users: await services(req).users.list() });
  });
  r.post('/user-admin', async (req, res) => {
    res.status(201).json(await services(req).users.create(req.body));
  });
  r.get('/user-admin/:id', async (req, res) => {
    res.json(await services(req).users.get(req.params.id));
  });
  r.put('/user-admin/:id', async (req, res) => {
    res.json(await services(req).users.update(req.params.id, req.body));
  });
  r.delete('/user-admin/:id', async (req, res) => {
    await services(req).users.delete(req.params.id);
    res.status(200).end();
  });
  r.post('/user-admin/reset-password', async (req, res) => {
    res.json(await services(req).users.createResetLink(req.body));
  });
  r.post('/user-admin/:id/change-password', async (req, res) => {
    await services(req).users.setPassword(req.params.id, req.body);
    res.status(200).end();
  });

  r.get('/user', async (req, res) => {
    res.json(await services(req).users.me());
  });
  r.post('/user/change-password', async (req, res) => {
    await services(req).users.changeOwnPassword(req.body);
    res.status(200).end();
  });
  r.get('/user/tokens', async (req, res) => {
    res.json({ pats: await services(req).personalTokens.list() });
  });
  r.post('/user/tokens', async (req, res) => {
    res.status(201).json(await services(req).personalTokens.create(req.body));
  });
  r.delete('/user/tokens/:id', async (req, res) => {
    await services(req).personalTokens.delete(req.params.id);
    res.status(200).end();
  });

  r.get('/api-tokens', async (req, res) => {
    res.json({ tokens: await services(req).apiTokens.list() });
  });
  r.post('/api-tokens', async (req, res) => {
    res.status(201).json(await services(req).apiTokens.create(req.body));
  });
  r.put('/api-tokens/:token', async (req, res) => {
    res.json(await services(req).apiTokens.update(req.params.token, req.body));
  });
  r.delete('/api-tokens/:token', async (req, res) => {
    await services(req).apiTokens.delete(req.params.token);
    res.status(200).end();
  });

  r.get('/projects/:projectId/access', async (req, res) => {
    res.json(await services(req).projectAccess.get(req.params.projectId));
  });
  r.post('/projects/:projectId/access', async (req, res) => {
    await services(req).projectAccess.add(req.params.projectId, req.body);
    res.status(200).end();
  });
  r.put('/projects/:projectId/users/:userId/roles', async (req, res) => {
    await services(req).projectAccess.setRoles(req.params.projectId, 'user', req.params.userId, req.body);
    res.status(200).end();
  });
  r.delete('/projects/:projectId/users/:userId/roles', async (req, res) => {
    await services(req).projectAccess.removeRoles(req.params.projectId, 'user', req.params.userId);
    res.status(200).end();
  });
  r.put('/projects/:projectId/groups/:groupId/roles', async (req, res) => {
    await services(req).projectAccess.setRoles(req.params.projectId, 'group', req.params.groupId, req.body);
    res.status(200).end();
  });
  r.delete('/projects/:projectId/groups/:groupId/roles', async (req, res) => {
    await services(req).projectAccess.removeRoles(req.params.projectId, 'group', req.params.groupId);
    res.status(200).end();
  });
  return r;
}
