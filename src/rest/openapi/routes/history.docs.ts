import { z } from 'zod';
import { diffQuerySchema, frontendAtSchema, versionsQuerySchema } from '../../../domain/history/history.service';
import { FeatureVersion, VersionDiffEntry } from '../../../domain/history/history.shapes';
import { pointSchema } from '../../../domain/history/point';
import { revertSchema } from '../../../domain/history/revert.service';
import { named } from '../../../domain/shapes';
import type { RouteDocs } from '../describe';
import { ClientFeaturesAnswer, FrontendAnswer } from './sdk.docs';

const tag = 'History';
const F = '/api/admin/projects/:projectId/features/:featureName';

const RevertChange = named('RevertChange', z.object({
  action: z.string().describe('createFeature, reviveFeature, moveFeature, updateFeature, addTag, removeTag, addDependency, deleteDependency, addStrategy, updateStrategy, deleteStrategy, updateEnabled, patchVariant or archiveFeature'),
  environment: z.string().optional(),
  project: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  payload: z.unknown().optional().describe('What it set (a change request change’s payload for the environment actions)'),
}), 'One change a revert made, or put in a draft');

const RevertResult = named('RevertResult', z.object({
  version: z.number().int().describe('The version brought back'),
  changes: z.array(RevertChange).describe('The changes made, in order'),
  drafts: z.array(z.object({ environment: z.string(), changeRequestId: z.number().int(), changes: z.array(RevertChange) }))
    .describe('The drafts made for environments under change requests'),
}), 'What a revert did');

const FeatureDiff = z.object({ name: z.string(), diff: z.array(VersionDiffEntry) });

const clientAtQuery = pointSchema.extend({
  environment: z.string().min(1).max(200).describe('The environment of the token whose answer you want'),
  projects: z.string().max(20_000).optional().describe('Its projects, comma-separated, or `*` (default every project)'),
  namePrefix: z.string().max(200).optional().describe('As the client API'),
  tag: z.array(z.string().min(1).max(200)).max(100).optional().describe('As the client API (repeatable `type:value`)'),
});

const REVERT = 'The changes are made through the services of ordinary edits in one transaction: each needs the permission the equivalent edit needs '
  + '(a refusal is that edit’s 403, and nothing is changed) and writes its usual event with `revertOf`; SDKs receive the result as a delta. '
  + 'An environment with change requests enabled gets a draft holding its changes instead. ';

/** The past of flags (issue 43). */
export const HISTORY_DOCS: RouteDocs = {
  [`GET ${F}/versions`]: {
    tag, summary: 'List a flag’s versions, newest first, with diffs and events', query: versionsQuerySchema,
    description: 'Each version is the flag’s whole configuration after a committed change (made through the API or not), with what changed from the previous one. A flag deleted since is still listed under the project it was last in.',
    responses: { 200: z.object({ versions: z.array(FeatureVersion) }) },
  },
  [`GET ${F}/diff`]: {
    tag, summary: 'What changed in a flag between two instants', query: diffQuerySchema,
    responses: { 200: z.object({ diff: z.array(VersionDiffEntry) }) },
  },
  'GET /api/admin/projects/:projectId/diff': {
    tag, summary: 'What changed in a project’s flags between two instants', query: diffQuerySchema,
    description: 'Flags in the project at either instant; those that did not change are left out.',
    responses: { 200: z.object({ features: z.array(FeatureDiff) }) },
  },
  'GET /api/admin/history/client-features': {
    tag, summary: 'The client API’s answer for a token scope at a past instant', query: clientAtQuery,
    description: 'Exactly the body `GET /api/client/features` gave a client token of that environment and those projects at that instant (the `Unleash-Client-Spec` header chooses segments apart or inlined, as there). 400 before what history keeps.',
    responses: { 200: ClientFeaturesAnswer },
  },
  'POST /api/admin/history/frontend': {
    tag, summary: 'The frontend API’s answer for a token scope and context at a past instant', body: frontendAtSchema,
    description: 'The flags as they were, evaluated for the context as `POST /api/frontend` evaluates it; the context’s `currentTime` defaults to the instant.',
    responses: { 200: FrontendAnswer },
  },
  [`POST ${F}/revert`]: {
    tag, summary: 'Bring a flag, or some of its environments, back to a version', body: revertSchema,
    description: `${REVERT}A flag archived or deleted since is revived or created again. A version that needs something deleted since (a segment, an environment, a context field, a parent flag, a project) is a 409 ConflictError naming it.`,
    responses: { 200: RevertResult }, errors: ['ConflictError', 'NoAccessError'],
  },
  'POST /api/admin/events/:id/revert': {
    tag, summary: 'Undo the change one event made to its flag',
    description: `${REVERT}Only when nothing touched the same part of the flag since: otherwise a 409 ConflictError naming each part changed since.`,
    responses: { 200: RevertResult }, errors: ['ConflictError', 'NoAccessError'],
  },
};
