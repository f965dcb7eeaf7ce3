import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** What both doors answer about versions (src/domain/shapes.ts says how shapes are used). */

export const VersionEvent = named('VersionEvent', z.object({
  id: z.number().int(),
  type: z.string(),
  createdBy: z.string(),
  createdByUserId: z.number().int().nullable(),
  createdAt: timestamp,
  environment: z.string().nullable(),
}), 'An audit event written by the change that made a version');
export type VersionEvent = z.output<typeof VersionEvent>;

export const VersionDiffEntry = named('VersionDiffEntry', z.object({
  path: z.string().describe('A JSON Pointer into the flag’s state: `/description`, `/environments/production/enabled`, `/environments/production/strategies/<id>/constraints`; empty when the flag itself appeared or went'),
  before: z.unknown().describe('The value before (null: absent)'),
  after: z.unknown().describe('The value after (null: absent)'),
}), 'One difference between two states of a flag');
export type VersionDiffEntry = z.output<typeof VersionDiffEntry>;

export const FeatureVersion = named('FeatureVersion', z.object({
  version: z.number().int().describe('1 for the flag’s first recorded state, then one more per change'),
  revision: z.number().int().describe('The revision (the counter SDK answers carry) the change committed as'),
  createdAt: timestamp.describe('When the change committed'),
  createdBy: z.string().nullable().describe('Who made it (from its events; null for a change made without the API)'),
  createdByUserId: z.number().int().nullable(),
  archived: z.boolean().describe('Whether the flag was archived in this version'),
  deleted: z.boolean().describe('Whether this version records the flag’s deletion'),
  events: z.array(VersionEvent),
  diff: z.array(VersionDiffEntry).describe('What changed from the previous version'),
}), 'A recorded state of a flag, with what changed and who changed it');
export type FeatureVersion = z.output<typeof FeatureVersion>;
