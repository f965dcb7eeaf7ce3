import { Router } from 'express';
import { services } from './context';

export function tagsRouter(): Router {
  const r = Router();
  r.get('/tag-types', async (req, res) => {
    res.json({ version: 1, tagTypes: await services(req).tags.listTagTypes() });
  });
  r.post('/tag-types/validate', async (req, res) => {
    await services(req).tags.validateTagType(req.body);
    res.json({ valid: true });
  });
  r.post('/tag-types', async (req, res) => {
    res.status(201).json(await services(req).tags.createTagType(req.body));
  });
  r.get('/tag-types/:name', async (req, res) => {
    res.json({ version: 1, tagType: await services(req).tags.getTagType(req.params.name) });
  });
  r.put('/tag-types/:name', async (req, res) => {
    res.json(await services(req).tags.updateTagType(req.params.name, req.body));
  });
  r.delete('/tag-types/:name', async (req, res) => {
    await services(req).tags.deleteTagType(req.params.name);
    res.status(200).end();
  });

  r.get('/tags', async (req, res) => {
    res.json({ version: 1, tags: await services(req).tags.listTags() });
  });
  r.get('/tags/:type', async (req, res) => {
    res.json({ version: 1, tags: await services(req).tags.listTags(req.params.type) });
  });
  r.get('/tags/:type/:value', async (req, res) => {
    res.json({ version: 1, tag: await services(req).tags.getTag(req.params.type, req.params.value) });
  });
  r.post('/tags', async (req, res) => {
    res.status(201).json({ version: 1, tag: await services(req).tags.createTag(req.body) });
  });
  r.delete('/tags/:type/:value', async (req, res) => {
    await services(req).tags.deleteTag(req.params.type, req.params.value);
    res.status(200).end();
  });
  return r;
}
