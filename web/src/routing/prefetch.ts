import type { QueryClient } from '@tanstack/react-query';
import { everyFlagQuery } from '../data/every-flag';
import { exposureParamsOf, exposureQuery } from '../data/flags/exposure';
import { flagQuery } from '../data/flags/flag';
import type { LazyRouteName } from './table';

/**
 * What a page reads first, asked for as its route is entered (routes.tsx runs these as the routes' loaders, without
 * waiting for them): the requests go out with the page's code and the session check instead of after both, and the page
 * finds them in the query cache under the keys its own hooks use (the same query options, from `data/`). The query
 * options come with the first route (a few hundred bytes: the documents are there already), so nothing waits for a chunk.
 */
export type Prefetch = (client: QueryClient, params: Readonly<Record<string, string | undefined>>, search: URLSearchParams) => Promise<unknown>;

export const PREFETCH: Partial<Record<LazyRouteName, Prefetch>> = {
  flags: (client) => client.prefetchQuery(everyFlagQuery()),
  flag: (client, { featureName = '' }, search) => {
    const overview = !search.get('tab') || search.get('tab') === 'overview';
    return Promise.all([
      client.prefetchQuery(flagQuery(featureName)),
      overview ? client.prefetchQuery(exposureQuery(featureName, exposureParamsOf((name) => search.get(name)))) : null,
    ]);
  },
};
