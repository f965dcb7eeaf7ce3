import type { RouteDocs } from '../describe';
import { PROJECT_DOCS } from './projects.docs';
import { TAG_DOCS } from './tags.docs';

/** The documentation of every REST route, one file per group. A test fails for a route of the app missing here. */
export const ROUTE_DOCS: RouteDocs = {
  ...TAG_DOCS,
  ...PROJECT_DOCS,
};
