import type { RouteDocs } from '../describe';
import { ACCESS_DOCS } from './access.docs';
import { EVENT_DOCS } from './events.docs';
import { FEATURE_DOCS } from './features.docs';
import { HISTORY_DOCS } from './history.docs';
import { LIFECYCLE_DOCS } from './lifecycle.docs';
import { OFREP_DOCS } from './ofrep.docs';
import { PLAYGROUND_DOCS } from './playground.docs';
import { PROJECT_DOCS } from './projects.docs';
import { SDK_DOCS } from './sdk.docs';
import { SERVICE_DOCS } from './service.docs';
import { TAG_DOCS } from './tags.docs';
import { UNKNOWN_FLAG_DOCS } from './unknown-flags.docs';

/** The documentation of every REST route, one file per group. A test fails for a route of the app missing here. */
export const ROUTE_DOCS: RouteDocs = {
  ...ACCESS_DOCS,
  ...EVENT_DOCS,
  ...FEATURE_DOCS,
  ...HISTORY_DOCS,
  ...LIFECYCLE_DOCS,
  ...OFREP_DOCS,
  ...PLAYGROUND_DOCS,
  ...PROJECT_DOCS,
  ...SDK_DOCS,
  ...SERVICE_DOCS,
  ...TAG_DOCS,
  ...UNKNOWN_FLAG_DOCS,
};
