import { z } from 'zod';
import { version1, type RouteDocs } from '../describe';
import { Event } from '../../../domain/events/event.shapes';

const tag = 'Events';

/** The query of `GET /api/admin/events` as the route reads it (whole numbers become numbers; the service checks the rest). */
const eventQuery = z.object({
  type: z.string().min(1).max(100).optional().describe('Only events of this type'),
  project: z.string().min(1).max(1000).optional().describe('Only events of this project'),
  feature: z.string().min(1).max(1000).optional().describe('Only events of this feature'),
  limit: z.number().int().min(1).max(1000).optional().describe('Most events to answer (default 100)'),
  offset: z.number().int().min(0).max(10_000_000).optional().describe('Events to skip, newest first'),
  before: z.number().int().min(1).optional().describe('Only events with a smaller id: pass the previous page’s `nextBefore`'),
});

export const EVENT_DOCS: RouteDocs = {
  'GET /api/admin/events': {
    tag, summary: 'Read the audit log, newest first', query: eventQuery,
    responses: {
      200: z.object({
        version: version1,
        events: z.array(Event),
        totalEvents: z.number().int().describe('How many events match the filter'),
        nextBefore: z.number().int().optional().describe('Present when older events remain: pass it as `before` to read the next page'),
      }),
    },
  },
  'GET /api/admin/events/:featureName': {
    tag, summary: 'Get the newest 100 events of a feature',
    description: 'A feature that does not exist (or no longer exists) gives the events recorded under its name, or an empty list.',
    responses: {
      200: z.object({ version: version1, toggleName: z.string(), events: z.array(Event), totalEvents: z.number().int().describe('How many events the feature has') }),
    },
  },
};
