import { z } from 'zod';
import { named, timestamp } from '../shapes';

/**
 * What both doors answer for addons, their providers and their deliveries (src/domain/shapes.ts says how shapes are
 * used): providers.ts declares the providers in these shapes, addon.read-model.ts maps the rows into them.
 */

// ---- providers ----

export const AddonParameter = named('AddonParameter', z.object({
  name: z.string(),
  displayName: z.string(),
  type: z.enum(['url', 'text', 'textfield', 'list']),
  description: z.string(),
  required: z.boolean(),
  sensitive: z.boolean().describe('Shown as `*****` in every answer; send `*****` back to keep the stored value'),
  placeholder: z.string().optional(),
}), 'A parameter an addon provider takes');
export type AddonParameter = z.output<typeof AddonParameter>;

export const AddonTagType = named('AddonTagType', z.object({ name: z.string(), description: z.string(), icon: z.string() }),
  'A tag type a provider reads; created when the first addon of the provider is');
export type AddonTagType = z.output<typeof AddonTagType>;

export const AddonDefinition = named('AddonDefinition', z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  documentationUrl: z.string(),
  parameters: z.array(AddonParameter),
  tagTypes: z.array(AddonTagType),
  events: z.array(z.string()).describe('The event types the provider is meant for (any event type may be chosen)'),
}), 'An addon provider');
export type AddonDefinition = z.output<typeof AddonDefinition>;

// ---- addons ----

/** An addon as both doors return it: sensitive parameters always masked. */
export const Addon = named('Addon', z.object({
  id: z.number().int().min(1),
  provider: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('Keys depend on the provider; sensitive ones are masked as `*****`'),
  events: z.array(z.string()),
  projects: z.array(z.string()).describe('Empty: every project'),
  environments: z.array(z.string()).describe('Empty: every environment'),
  createdAt: timestamp,
}));
export type Addon = z.output<typeof Addon>;

// ---- deliveries ----

/** One recorded attempt, as `addon_deliveries.attempts` stores it (never a secret). */
export const AddonDeliveryAttempt = named('AddonDeliveryAttempt', z.object({
  attempt: z.number().int(),
  at: timestamp,
  durationMs: z.number(),
  statusCode: z.number().int().nullable().describe('The receiver’s status; null when no answer came'),
  error: z.string().nullable(),
}));
export type AddonDeliveryAttempt = z.output<typeof AddonDeliveryAttempt>;

/** One delivery of one event to one addon, with every attempt (newest deliveries first in lists). */
export const AddonDelivery = named('AddonDelivery', z.object({
  id: z.string().describe('Also the `Idempotency-Key` header the receiver got'),
  addonId: z.number().int(),
  eventId: z.number().int(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'skipped']),
  attempts: z.array(AddonDeliveryAttempt),
  createdAt: timestamp,
  nextAttemptAt: timestamp.nullable().describe('When the next attempt is due (pending deliveries only)'),
  finishedAt: timestamp.nullable(),
  redeliveryOf: z.string().nullable().describe('The delivery this one repeats'),
}), 'One delivery of one event to one addon, with every attempt');
export type AddonDelivery = z.output<typeof AddonDelivery>;

export const AddonDeliveryPage = named('AddonDeliveryPage', z.object({
  deliveries: z.array(AddonDelivery),
  nextCursor: z.string().nullable().describe('Pass as `after` to read older deliveries; null on the last page'),
}));
export type AddonDeliveryPage = z.output<typeof AddonDeliveryPage>;
