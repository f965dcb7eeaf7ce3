import type { RouteDocs } from '../describe';
import { EVENT_DOCS } from './events.docs';
import { FEATURE_DOCS } from './features.docs';
import { PLAYGROUND_DOCS } from './playground.docs';
import { TAG_DOCS } from './tags.docs';

/** The documentation of every REST route, one file per group. A test fails for a route of the app missing here. */
export const ROUTE_DOCS: RouteDocs = {
  ...TAG_DOCS,
  ...FEATURE_DOCS,
  ...PLAYGROUND_DOCS,
  ...EVENT_DOCS,
};
