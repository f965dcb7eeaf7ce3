import { z } from 'zod';
import { named, timestamp } from '../shapes';

/** At most this many names are kept (the least recently reported go first), and none longer than KEEP_DAYS. */
export const MAX_UNKNOWN_NAMES = 1000;
export const KEEP_DAYS = 7;

export const UnknownFlag = named('UnknownFlag', z.object({
  name: z.string().describe('The name an SDK reported'),
  appName: z.string().describe('The application that reported it'),
  environment: z.string().describe('The environment of the reporting token'),
  seenAt: timestamp.describe('Its latest report'),
}), 'A flag name SDKs report in their metrics that no flag has');
export type UnknownFlag = z.output<typeof UnknownFlag>;
